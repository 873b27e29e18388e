import crypto from 'node:crypto'
import fs from 'node:fs'
import path from 'node:path'
import type { ContainerSettings, ContainerStatus } from '../../src-shared'
import type { ContainerRunner, EngineStatus } from '../containers'
import type { ContainerPort } from '../subagents'
import { realpathOrSelf } from '../files'

/** Written before a container starts; a host that finds it at start looks for leftovers of a crashed predecessor. */
const MARKER = 'containers-started'

/**
 * The host's way to container engines (issue 29): one runner per engine configuration, loaded on first use (a host
 * that never starts a container never loads dockerode), and this data dir's owner label.
 */
export function createContainerPort(dataDir: string, env: NodeJS.ProcessEnv): ContainerPort & {
  status(settings: ContainerSettings): Promise<EngineStatus>
  sweepLeftovers(settings: ContainerSettings, note: (line: string) => void): Promise<void>
} {
  const owner = crypto.createHash('sha256').update(realpathOrSelf(dataDir)).digest('hex').slice(0, 16)
  const runners = new Map<string, ContainerRunner>()
  const runner = (settings: ContainerSettings): ContainerRunner => {
    const key = JSON.stringify([settings.engine, settings.tls, settings.image])
    let r = runners.get(key)
    if (!r) {
      r = lazyRunner(settings, env)
      runners.set(key, r)
    }
    return r
  }
  const marker = path.join(dataDir, MARKER)
  return {
    owner,
    runner,
    engineLabel: (settings) => withoutCredentials(settings.engine ?? env.DOCKER_HOST ?? 'the default engine socket'),
    starting: () => {
      if (!fs.existsSync(marker)) fs.writeFileSync(marker, `${new Date().toISOString()}\n`)
    },
    status: (settings) => runner(settings).status(),
    async sweepLeftovers(settings, note) {
      if (!fs.existsSync(marker)) return
      // At start nothing of this host runs yet: every container labelled with this data dir is a leftover.
      const { removed, failed } = await runner(settings).sweep(owner, () => false)
      if (removed.length) note(`removed ${removed.length} container(s) left by a host that stopped without cleaning up: ${removed.join(', ')}`)
      for (const f of failed) note(`could not remove container ${f.name} left by an earlier host: ${f.error}`)
      if (!failed.length) fs.rmSync(marker, { force: true })
    },
  }
}

/** dockerode and its engine connection, loaded when a container is first needed. */
function lazyRunner(settings: ContainerSettings, env: NodeJS.ProcessEnv): ContainerRunner {
  let loaded: Promise<ContainerRunner> | undefined
  const get = () => (loaded ??= import('../containers/docker-runner').then((m) => m.createDockerRunner(settings, env)))
  return {
    status: async () => (await get()).status(),
    start: async (spec) => (await get()).start(spec),
    sweep: async (owner, keep) => (await get()).sweep(owner, keep),
  }
}

/** `tcp://user:secret@host` → `tcp://host`: cards and Settings never show credentials. */
function withoutCredentials(url: string): string {
  return url.replace(/^([a-z]+:\/\/)[^@/]*@/i, '$1')
}

/** `containers.status`: the engine's answer with the settings children would run with; never throws for an engine that is down. */
export async function containerStatus(port: Pick<ReturnType<typeof createContainerPort>, 'status' | 'engineLabel'> | undefined, settings: ContainerSettings): Promise<ContainerStatus> {
  const base = { engine: port?.engineLabel(settings) ?? 'none', image: { name: settings.image, present: false }, limits: settings.limits }
  if (!port) return { ...base, ok: false, message: 'This Agentry has no container support.' }
  const s = await port.status(settings)
  if (!s.ok) return { ...base, ok: false, message: s.message }
  const message = s.image.present ? undefined : `The image ${s.image.name} is not on ${base.engine}: build or pull it there (Agentry never pulls images), or set containers.image in config.yaml.`
  return { ...base, ok: s.image.present, kind: s.kind, version: s.version, image: s.image, ...(message ? { message } : {}) }
}
