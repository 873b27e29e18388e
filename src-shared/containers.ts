import { z } from 'zod'
import { lazy } from './lazy'

/**
 * `containers:` in the person's config.yaml (issue 29; a workspace's config.yaml cannot change it): where children with
 * `isolation: container` run. The engine is any Docker Engine API: Docker, Podman's Docker-compatible service, or a
 * remote engine (`tcp://host:2376` with TLS, `ssh://user@host`).
 */
export const ContainerSettings = lazy(() =>
  z
    .object({
      /** DOCKER_HOST-style URL (`unix:///run/podman/podman.sock`, `tcp://…`, `ssh://…`); absent: $DOCKER_HOST, then the usual sockets */
      engine: z.string().regex(/^(unix|tcp|ssh|npipe|https?):\/\//, 'must be a URL such as unix:///var/run/docker.sock, tcp://host:2376 or ssh://user@host').optional(),
      /** the image children run in; it must have bash (or sh) — pulled or built beforehand, never pulled by Agentry */
      image: z.string().min(1).default('agentry-sandbox:latest'),
      limits: z
        .object({
          /** CPUs (fractions allowed) */
          cpus: z.number().positive().max(256).default(2),
          memoryMb: z.number().int().positive().default(2048),
          /** processes: a fork bomb stops here */
          pids: z.number().int().positive().default(512),
        })
        .strict()
        .default({ cpus: 2, memoryMb: 2048, pids: 512 }),
      /** keep a child's container when it ends (for a look inside; the task's result names it); default: removed */
      keep: z.boolean().default(false),
      /** TLS client files for a tcp:// engine (paths; `DOCKER_CERT_PATH` style) */
      tls: z.object({ ca: z.string().optional(), cert: z.string().optional(), key: z.string().optional() }).strict().optional(),
    })
    .strict()
)
export type ContainerSettings = z.infer<typeof ContainerSettings>

/** Where a child with `isolation: container` runs, as its task card shows it. */
export const TaskContainer = lazy(() =>
  z.object({
    /** container name (`agentry-<child session id>`) */
    name: z.string(),
    id: z.string().optional(),
    image: z.string(),
    /** the engine's URL as configured (never credentials) */
    engine: z.string(),
    limits: z.object({ cpus: z.number(), memoryMb: z.number(), pids: z.number() }),
    network: z.boolean(),
    /** starting while the container is being made; running; removed when the child ended; kept on request */
    state: z.enum(['starting', 'running', 'removed', 'kept', 'failed']),
    error: z.string().optional(),
  })
)
export type TaskContainer = z.infer<typeof TaskContainer>

/** How a child is isolated: its own git worktree, its own container, or both (its worktree mounted in its container). */
export const ISOLATIONS = ['worktree', 'container', 'worktree+container'] as const
export type Isolation = (typeof ISOLATIONS)[number]

/** An agent file's `isolation:` (one word, or a list) or a task call's, as what it asks for. */
export function isolationOf(value: string | readonly string[] | undefined): { worktree: boolean; container: boolean } {
  const words = typeof value === 'string' ? value.split('+') : (value ?? [])
  return { worktree: words.includes('worktree'), container: words.includes('container') }
}

/** `containers.status`: the engine as configured, reachable or not, and the settings children would run with. */
export const ContainerStatus = lazy(() =>
  z.object({
    engine: z.string(),
    ok: z.boolean(),
    /** reachable: docker, podman or another Docker-API engine, and its version */
    kind: z.enum(['docker', 'podman', 'other']).optional(),
    version: z.string().optional(),
    image: z.object({ name: z.string(), present: z.boolean() }),
    limits: z.object({ cpus: z.number(), memoryMb: z.number(), pids: z.number() }),
    /** not reachable (or the image is missing): what is wrong and what to do, in one sentence */
    message: z.string().optional(),
  })
)
export type ContainerStatus = z.infer<typeof ContainerStatus>
