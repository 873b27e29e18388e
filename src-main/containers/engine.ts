import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import type Docker from 'dockerode'
import type { ContainerSettings } from '../../src-shared/containers'
import { ContainerError } from './runner'

/** Where an engine usually listens when nothing is configured, in the order they are tried. */
export function defaultSockets(env: NodeJS.ProcessEnv): string[] {
  const runtimeDir = env.XDG_RUNTIME_DIR
  return [
    '/run/podman/podman.sock',
    '/var/run/docker.sock',
    path.join(os.homedir(), '.docker', 'run', 'docker.sock'),
    ...(runtimeDir ? [path.join(runtimeDir, 'podman', 'podman.sock'), path.join(runtimeDir, 'docker.sock')] : []),
  ]
}

/** The engine's URL: containers.engine, else $DOCKER_HOST, else the first usual socket that exists (else Docker's). */
export function engineUrl(settings: Pick<ContainerSettings, 'engine'>, env: NodeJS.ProcessEnv): string {
  if (settings.engine) return settings.engine
  if (env.DOCKER_HOST) return env.DOCKER_HOST.includes('://') ? env.DOCKER_HOST : `tcp://${env.DOCKER_HOST}`
  const found = defaultSockets(env).find((s) => fs.existsSync(s))
  return `unix://${found ?? '/var/run/docker.sock'}`
}

/** The URL as it may be shown (Settings, task cards, errors): never a password. */
export function displayUrl(url: string): string {
  return url.replace(/^([a-z]+:\/\/)[^@/]*:[^@/]*@/i, '$1')
}

/**
 * dockerode's options for a URL. Every connection field is set explicitly: docker-modem merges its own defaults from
 * $DOCKER_HOST underneath, and a configured engine must not be overridden by the environment.
 */
export function dockerOptions(url: string, settings: Pick<ContainerSettings, 'tls'>, env: NodeJS.ProcessEnv): Docker.DockerOptions {
  const none = { socketPath: undefined, host: undefined, port: undefined, username: undefined, ca: undefined, cert: undefined, key: undefined }
  const scheme = /^([a-z]+):\/\//i.exec(url)?.[1]?.toLowerCase()
  if (scheme === 'unix' || scheme === 'npipe') {
    const socketPath = url.slice(scheme.length + 3)
    if (!socketPath) throw new ContainerError(`The engine URL ${url} names no socket: write it as unix:///var/run/docker.sock.`)
    return { ...none, socketPath, protocol: 'http' }
  }
  let parsed: URL
  try {
    parsed = new URL(url)
  } catch {
    throw new ContainerError(`The engine URL ${displayUrl(url)} is not a URL: write it as unix:///var/run/docker.sock, tcp://host:2376 or ssh://user@host.`)
  }
  if (scheme === 'ssh') {
    return {
      ...none,
      protocol: 'ssh',
      host: parsed.hostname,
      port: parsed.port || 22,
      username: decodeURIComponent(parsed.username) || os.userInfo().username,
      sshOptions: { agent: env.SSH_AUTH_SOCK, ...(parsed.password ? { password: decodeURIComponent(parsed.password) } : {}) },
    }
  }
  if (scheme !== 'tcp' && scheme !== 'http' && scheme !== 'https') {
    throw new ContainerError(`The engine URL ${displayUrl(url)} has a scheme Agentry cannot use: use unix://, tcp:// (with TLS), ssh:// or npipe://.`)
  }
  const tls = tlsFiles(settings, env)
  const https = scheme === 'https' || tls !== undefined || env.DOCKER_TLS_VERIFY === '1' || parsed.port === '2376'
  return { ...none, host: parsed.hostname, port: parsed.port || (https ? 2376 : 2375), protocol: https ? 'https' : 'http', ...(tls ?? {}) }
}

/** containers.tls, else $DOCKER_CERT_PATH's ca.pem/cert.pem/key.pem; read now, so a missing file is named at once. */
function tlsFiles(settings: Pick<ContainerSettings, 'tls'>, env: NodeJS.ProcessEnv): { ca?: Buffer; cert?: Buffer; key?: Buffer } | undefined {
  const certPath = env.DOCKER_CERT_PATH
  const files = settings.tls ?? (certPath ? { ca: path.join(certPath, 'ca.pem'), cert: path.join(certPath, 'cert.pem'), key: path.join(certPath, 'key.pem') } : undefined)
  if (!files) return undefined
  const read = (file: string | undefined): Buffer | undefined => {
    if (!file) return undefined
    try {
      return fs.readFileSync(file)
    } catch (err) {
      throw new ContainerError(`Cannot read the TLS file ${file} for the container engine (${(err as NodeJS.ErrnoException).code ?? 'unreadable'}): fix containers.tls in config.yaml or DOCKER_CERT_PATH.`)
    }
  }
  return { ca: read(files.ca), cert: read(files.cert), key: read(files.key) }
}

/** Codes of a connection that never reached an engine. */
const UNREACHABLE = new Set(['ECONNREFUSED', 'ENOENT', 'ENOTFOUND', 'EHOSTUNREACH', 'ENETUNREACH', 'ETIMEDOUT', 'ECONNRESET', 'EAI_AGAIN', 'EPIPE'])

/** The one sentence for an engine that does not answer. */
export function unreachableMessage(url: string, err?: unknown): string {
  const code = (err as NodeJS.ErrnoException | undefined)?.code
  const shown = displayUrl(url)
  if (code === 'EACCES' || code === 'EPERM') {
    return `No permission to use the container engine at ${shown}: add yourself to the socket's group (e.g. \`docker\`), or use a rootless engine (\`podman system service --time=0\`), or set containers.engine in config.yaml.`
  }
  if (url.startsWith('unix://') || url.startsWith('npipe://')) {
    return `No container engine at ${shown}: start Docker, or run \`podman system service --time=0 unix:///run/podman/podman.sock\`, or set containers.engine in config.yaml.`
  }
  return `No container engine answers at ${shown}${code ? ` (${code})` : ''}: start it or check the address, TLS files and SSH access, or set containers.engine in config.yaml.`
}

/** Any error from dockerode as a ContainerError: one sentence, what to do, no stack. */
export function engineError(err: unknown, url: string, doing: string): ContainerError {
  if (err instanceof ContainerError) return err
  const e = err as { code?: string; statusCode?: number; json?: { message?: string } | null; message?: string; reason?: string }
  if (e?.code && (UNREACHABLE.has(e.code) || e.code === 'EACCES' || e.code === 'EPERM')) return new ContainerError(unreachableMessage(url, err))
  if (e?.message && /ssh|handshake|authentication/i.test(e.message) && url.startsWith('ssh://')) {
    return new ContainerError(`Cannot reach the container engine at ${displayUrl(url)} over SSH (${firstLine(e.message)}): check the SSH key or agent and that the remote user may use Docker.`)
  }
  const detail = firstLine(e?.json?.message ?? e?.reason ?? e?.message ?? String(err))
  return new ContainerError(`The container engine at ${displayUrl(url)} could not ${doing}: ${detail.replace(/\.$/, '')}.`)
}

function firstLine(text: string): string {
  const line = text.split('\n').find((l) => l.trim()) ?? text
  return line.trim().slice(0, 300)
}

/** A missing image, named with how to get it (Agentry never pulls). */
export function imageMissingMessage(image: string, url: string): string {
  return `The image ${image} is not on the container engine at ${displayUrl(url)}: build it (\`docker build -t ${image} .\` or \`podman build -t ${image} .\`) or pull it (\`docker pull ${image}\`), or set containers.image in config.yaml.`
}

/** Does this engine error say the image is not there? (Docker: "No such image"; Podman: "image not known".) */
export function isImageMissing(err: unknown): boolean {
  const e = err as { statusCode?: number; json?: { message?: string } | null; message?: string }
  const text = `${e?.json?.message ?? ''} ${e?.message ?? ''}`
  return (e?.statusCode === 404 && /image|no such/i.test(text) && !/container/i.test(text)) || /no such image|image not known|manifest unknown|repository does not exist/i.test(text)
}
