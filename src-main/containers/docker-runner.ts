import { randomUUID } from 'node:crypto'
import { Writable } from 'node:stream'
import { StringDecoder } from 'node:string_decoder'
import type Docker from 'dockerode'
import type { ContainerSettings } from '../../src-shared/containers'
import { displayUrl, dockerOptions, engineError, engineUrl, imageMissingMessage, isImageMissing } from './engine'
import { ContainerError, type ContainerHandle, type ContainerRunner, type ContainerSpec, type EngineStatus, type ExecOptions, type ExecResult } from './runner'
import { INIT_SCRIPT, KILL_SCRIPT, OOM_SCRIPT, WRAP_SCRIPT, oomKills } from './scripts'

/** Labels every container of Agentry's carries: a restart finds a crashed host's containers by these. */
export const LABELS = { owner: 'agentry.owner', session: 'agentry.session', root: 'agentry.root' } as const

/** How long a killed command may take to let go of its output before the runner stops waiting for it. */
const KILL_GRACE_MS = 2_000

/**
 * The container runner on the Docker Engine API (dockerode): Docker, Podman's compatible service
 * (`podman system service`), or a remote engine over TCP+TLS or SSH. It never pulls images and never runs anything on
 * the host: every failure is a ContainerError saying what to do.
 */
export function createDockerRunner(settings: Pick<ContainerSettings, 'engine' | 'image' | 'tls'>, env: NodeJS.ProcessEnv = process.env): ContainerRunner {
  const url = engineUrl(settings, env)
  let docker: Promise<Docker> | undefined
  // dockerode (with ssh2 and gRPC under it) takes a third of a second to load: only when a container is first needed
  const client = (): Promise<Docker> =>
    (docker ??= (async () => {
      const options = dockerOptions(url, settings, env)
      const { default: Dockerode } = await import('dockerode')
      return new Dockerode(options)
    })().catch((err: unknown) => {
      docker = undefined
      throw err
    }))
  let versionOnce: Promise<Docker.DockerVersion> | undefined
  /** engine calls, their errors made sentences */
  const call = async <T>(doing: string, f: (d: Docker) => Promise<T>): Promise<T> => {
    let d: Docker
    try {
      d = await client()
    } catch (err) {
      throw engineError(err, url, doing)
    }
    try {
      return await f(d)
    } catch (err) {
      throw engineError(err, url, doing)
    }
  }

  return {
    async status(): Promise<EngineStatus> {
      try {
        await call('answer a ping', (d) => d.ping())
        // the version once per runner: Podman's /version asks conmon and runc for theirs (seconds on a busy machine)
        const v = await (versionOnce ??= call('say its version', (d) => d.version()).catch((err: unknown) => {
          versionOnce = undefined
          throw err
        }))
        const names = [v.Platform?.Name ?? '', ...(v.Components ?? []).map((c) => c.Name)].join(' ')
        const kind = /podman/i.test(names) ? 'podman' : /docker/i.test(names) || /^Engine$/m.test((v.Components ?? []).map((c) => c.Name).join('\n')) ? 'docker' : 'other'
        const podman = (v.Components ?? []).find((c) => /podman/i.test(c.Name))
        const version = podman?.Version ?? v.Version
        const present = await call('inspect the image', async (d) => {
          try {
            await d.getImage(settings.image).inspect()
            return true
          } catch (err) {
            if ((err as { statusCode?: number }).statusCode === 404) return false
            throw err
          }
        })
        return { ok: true, engine: displayUrl(url), kind, version, image: { name: settings.image, present } }
      } catch (err) {
        return { ok: false, engine: displayUrl(url), message: err instanceof ContainerError ? err.message : engineError(err, url, 'answer').message }
      }
    },

    async start(spec: ContainerSpec): Promise<ContainerHandle> {
      const name = `agentry-${spec.sessionId}`
      const options: Docker.ContainerCreateOptions = {
        name,
        Image: spec.image,
        // the image's own entrypoint is replaced: the container only waits for execs (and reaps their orphans)
        Entrypoint: ['sh', '-c', INIT_SCRIPT],
        Cmd: [],
        WorkingDir: spec.workdir,
        User: '0:0',
        Labels: { [LABELS.owner]: spec.owner, [LABELS.session]: spec.sessionId, [LABELS.root]: spec.rootSessionId },
        Env: ['AGENTRY_CONTAINER=1'],
        AttachStdin: false,
        AttachStdout: false,
        AttachStderr: false,
        Tty: false,
        OpenStdin: false,
        HostConfig: {
          AutoRemove: false,
          // no network at all unless asked; asked: the engine's default network
          ...(spec.network ? {} : { NetworkMode: 'none' }),
          Mounts: spec.mounts.map((m) => ({ Type: 'bind' as const, Source: m.path, Target: m.path, ReadOnly: m.readOnly ?? false })),
          NanoCpus: Math.round(spec.limits.cpus * 1e9),
          Memory: spec.limits.memoryMb * 1024 * 1024,
          // equal to Memory: no swap, so a memory hog is killed instead of swapping the machine
          MemorySwap: spec.limits.memoryMb * 1024 * 1024,
          PidsLimit: spec.limits.pids,
          RestartPolicy: { Name: 'no' },
        },
      }
      let d: Docker
      try {
        d = await client()
      } catch (err) {
        throw engineError(err, url, `create the container ${name}`)
      }
      let container: Docker.Container
      try {
        container = await d.createContainer(options).catch(async (err: unknown) => {
          // a container of this name left by an earlier run of this same session (and this host): replace it
          if (!isNameTaken(err)) throw err
          const old = d.getContainer(name)
          const info = await old.inspect()
          if (info.Config.Labels?.[LABELS.owner] !== spec.owner) {
            throw new ContainerError(`A container named ${name} that Agentry did not make for this data folder exists on ${displayUrl(url)}: remove it (\`docker rm -f ${name}\`) and try again.`)
          }
          await old.remove({ force: true })
          return d.createContainer(options)
        })
      } catch (err) {
        if (isImageMissing(err)) throw new ContainerError(imageMissingMessage(spec.image, url))
        throw engineError(err, url, `create the container ${name}`)
      }
      try {
        await container.start()
      } catch (err) {
        await container.remove({ force: true }).catch(() => {})
        const text = (err as { json?: { message?: string } }).json?.message ?? (err as Error).message ?? ''
        if (/executable file not found|no such file or directory/i.test(text)) {
          throw new ContainerError(`The image ${spec.image} has no sh: children need an image with bash or sh (e.g. debian:bookworm-slim); set containers.image in config.yaml.`)
        }
        throw engineError(err, url, `start the container ${name}`)
      }
      return dockerHandle(d, container, name, url)
    },

    async sweep(owner, keep) {
      const removed: string[] = []
      const failed: { name: string; error: string }[] = []
      const list = await call('list its containers', (d) => d.listContainers({ all: true, filters: { label: [`${LABELS.owner}=${owner}`] } }))
      for (const c of list) {
        const name = (c.Names[0] ?? c.Id).replace(/^\//, '')
        // the engine filtered by label; checked again, since a label filter an engine ignored must not remove others'
        if (c.Labels?.[LABELS.owner] !== owner) continue
        const session = c.Labels?.[LABELS.session] ?? ''
        if (keep(session)) continue
        try {
          await call(`remove the container ${name}`, (d) => d.getContainer(c.Id).remove({ force: true }))
          removed.push(name)
        } catch (err) {
          failed.push({ name, error: (err as Error).message })
        }
      }
      return { removed, failed }
    },
  }
}

function dockerHandle(docker: Docker, container: Docker.Container, name: string, url: string): ContainerHandle {
  let removed: Promise<void> | undefined
  /** the container cgroup's OOM kills seen so far: one more after a command means it was the memory limit */
  let oomSeen = 0

  /** runs a short helper script to its end and returns its stdout (for kill and the OOM check) */
  const helper = async (script: string, args: string[]): Promise<string> => {
    const e = await container.exec({ Cmd: ['sh', '-c', script, 'agentry', ...args], AttachStdout: true, AttachStderr: true, User: '0:0' })
    const stream = await e.start({ hijack: true, stdin: false })
    let out = ''
    docker.modem.demuxStream(stream, sink((t) => (out += t)), sink(() => {}))
    await new Promise<void>((resolve) => {
      stream.on('end', resolve)
      stream.on('close', resolve)
      stream.on('error', () => resolve())
    })
    return out
  }

  const memoryKilled = async (): Promise<boolean> => {
    const [inspect, text] = await Promise.all([container.inspect().catch(() => undefined), helper(OOM_SCRIPT, []).catch(() => '')])
    const count = oomKills(text)
    if (count > oomSeen) {
      oomSeen = count
      return true
    }
    return inspect?.State?.OOMKilled === true
  }

  return {
    id: container.id,
    name,
    async exec(command: string, o: ExecOptions): Promise<ExecResult> {
      if (removed) throw new ContainerError(`The container ${name} was removed: its child's commands cannot run any more.`)
      if (o.signal.aborted) return { exitCode: null, output: '', dropped: 0, killed: 'abort' }
      const pidFile = `/tmp/.agentry-exec-${randomUUID()}`
      let exec: Docker.Exec
      let stream: NodeJS.ReadWriteStream
      try {
        exec = await container.exec({
          Cmd: ['sh', '-c', WRAP_SCRIPT, 'agentry', pidFile, command],
          AttachStdout: true,
          AttachStderr: true,
          Tty: false,
          WorkingDir: o.cwd,
          Env: Object.entries(o.env ?? {}).map(([k, v]) => `${k}=${v}`),
          User: '0:0',
        })
        stream = await exec.start({ hijack: true, stdin: false })
      } catch (err) {
        if ((err as { statusCode?: number }).statusCode === 404 || (err as { statusCode?: number }).statusCode === 409) {
          throw new ContainerError(`The container ${name} is gone or stopped on ${displayUrl(url)}: its child cannot run commands any more (was it removed by hand, or the engine restarted?).`)
        }
        throw engineError(err, url, `run a command in ${name}`)
      }

      let output = ''
      let dropped = 0
      const take = (text: string) => {
        if (!text) return
        o.onData?.(text)
        const room = o.maxChars - output.length
        if (room >= text.length) output += text
        else {
          if (room > 0) output += text.slice(0, room)
          dropped += text.length - Math.max(room, 0)
        }
      }
      docker.modem.demuxStream(stream, sink(take), sink(take))

      let killed: ExecResult['killed']
      const ended = new Promise<void>((resolve) => {
        stream.on('end', resolve)
        stream.on('close', resolve)
        stream.on('error', () => resolve())
      })
      let done = false
      const stop = (why: 'timeout' | 'abort') => {
        if (killed) return
        killed = why
        // the pid file may not be written yet, or the pids limit may refuse the helper for a moment: tried again
        void (async () => {
          for (let i = 0; i < 20 && !done; i++) {
            if ((await helper(KILL_SCRIPT, [pidFile, 'KILL']).catch(() => '')).includes('killed')) return
            await new Promise((r) => setTimeout(r, 100))
          }
        })()
      }
      const timer = setTimeout(() => stop('timeout'), o.timeoutMs)
      const onAbort = () => stop('abort')
      o.signal.addEventListener('abort', onAbort, { once: true })
      if (o.signal.aborted) onAbort()
      try {
        // a killed command whose output is still held (a descendant that escaped the tree) is let go after a grace
        await Promise.race([
          ended,
          new Promise<void>((resolve) => {
            const check = setInterval(() => {
              if (!killed) return
              clearInterval(check)
              setTimeout(resolve, KILL_GRACE_MS).unref()
            }, 50)
            void ended.then(() => clearInterval(check))
          }),
        ])
      } finally {
        done = true
        clearTimeout(timer)
        o.signal.removeEventListener('abort', onAbort)
        ;(stream as unknown as { destroy?: () => void }).destroy?.()
      }
      if (killed) return { exitCode: null, output, dropped, killed }

      const exitCode = await exitCodeOf(exec)
      // 137: SIGKILL. The memory limit's OOM killer is one reason; the cgroup's count (or the engine) says whether.
      if (exitCode === 137 && (await memoryKilled())) return { exitCode: null, output, dropped, killed: 'oom' }
      return { exitCode, output, dropped }
    },
    remove(): Promise<void> {
      removed ??= container.remove({ force: true, v: true }).then(
        () => {},
        (err: unknown) => {
          if ((err as { statusCode?: number }).statusCode === 404) return
          removed = undefined
          throw engineError(err, url, `remove the container ${name}`)
        }
      )
      return removed
    },
  }
}

/** Docker answers 409 for a name in use; Podman 500 with "already in use". */
function isNameTaken(err: unknown): boolean {
  const e = err as { statusCode?: number; json?: { message?: string } | null; message?: string }
  return e?.statusCode === 409 || /already in use/i.test(`${e?.json?.message ?? ''} ${e?.message ?? ''}`)
}

/** The exec's exit code; an engine may report it a moment after the output ended. */
async function exitCodeOf(exec: Docker.Exec): Promise<number | null> {
  for (let i = 0; i < 50; i++) {
    const info = await exec.inspect().catch(() => undefined)
    if (info && !info.Running && info.ExitCode !== null) return info.ExitCode
    await new Promise((r) => setTimeout(r, 20))
  }
  return null
}

/** A writable that decodes UTF-8 (characters split across chunks included) and hands text on. */
function sink(on: (text: string) => void): Writable {
  const decoder = new StringDecoder('utf8')
  return new Writable({
    write(chunk: Buffer, _enc, done) {
      on(decoder.write(chunk))
      done()
    },
    final(done) {
      on(decoder.end())
      done()
    },
  })
}
