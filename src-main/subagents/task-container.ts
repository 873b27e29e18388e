import type { ContainerSettings, TaskContainer } from '../../src-shared'
import { ContainerError, type ContainerHandle, type ContainerRunner } from '../containers'
import type { RunLevel } from '../runtime'
import { ToolError } from '../tools'

/** How the host reaches container engines: one runner per engine configuration, and this data dir's owner label. */
export interface ContainerPort {
  runner(settings: ContainerSettings): ContainerRunner
  /** labels every container this data dir starts (a restart removes its own, never another's) */
  owner: string
  /** the engine as shown on cards and in Settings (never credentials) */
  engineLabel(settings: ContainerSettings): string
  /** told before a container starts (the host keeps a marker so the next start knows to look for leftovers) */
  starting?(): void
}

export interface OpenContainer {
  handle: ContainerHandle
  card: TaskContainer
}

/**
 * The child's own container (isolation: container): its workdir (the workspace, or its worktree) and the
 * conversation's scratchpad mounted at the same paths, no network unless the rules allow it, the configured limits.
 * An engine that cannot start it is a tool error naming what to do — the child never falls back to the host.
 */
export async function openTaskContainer(port: ContainerPort | undefined, child: RunLevel, network: boolean): Promise<OpenContainer> {
  const settings = child.settings.config.config.containers
  const card: TaskContainer = { name: `agentry-${child.sessionId}`, image: settings.image, engine: port?.engineLabel(settings) ?? 'none', limits: settings.limits, network, state: 'starting' }
  if (!port) throw new ToolError('isolation "container" is not available in this Agentry (no container engine support). Run the task without it.')
  port.starting?.()
  try {
    const handle = await port.runner(settings).start({
      sessionId: child.sessionId,
      rootSessionId: child.rootSessionId,
      owner: port.owner,
      image: settings.image,
      mounts: [{ path: child.workdir }, ...(child.scratchpad ? [{ path: child.scratchpad }] : [])],
      workdir: child.workdir,
      network,
      limits: settings.limits,
    })
    return { handle, card: { ...card, id: handle.id, name: handle.name, state: 'running' } }
  } catch (err) {
    if (err instanceof ContainerError) throw new ToolError(`isolation "container": ${err.message}`)
    throw err
  }
}

/** Removes the container when the child ends, or keeps it when config.yaml says so; the card says which. */
export async function closeTaskContainer(box: OpenContainer, keep: boolean): Promise<TaskContainer> {
  if (keep) return { ...box.card, state: 'kept' }
  try {
    await box.handle.remove()
    return { ...box.card, state: 'removed' }
  } catch (err) {
    return { ...box.card, state: 'failed', error: `could not remove it: ${err instanceof Error ? err.message : String(err)}` }
  }
}

/** The line the caller reads after a child whose container was kept (or could not be removed). */
export function containerNote(card: TaskContainer): string | undefined {
  if (card.state === 'kept') return `Its container ${card.name} was kept (containers.keep in config.yaml): look inside with \`podman exec -it ${card.name} bash\` or docker exec; remove it with \`podman rm -f ${card.name}\`.`
  if (card.state === 'failed') return `Its container ${card.name} ${card.error}; remove it with \`podman rm -f ${card.name}\` or docker rm -f.`
  return undefined
}
