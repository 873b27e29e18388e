import type { TaskContainer } from '../../../src-shared'

const STATE: Record<TaskContainer['state'], string> = {
  starting: 'starting its container',
  running: 'running in its own container',
  removed: 'container removed',
  kept: 'container kept',
  failed: 'container not removed',
}

/** Where a child with isolation: container ran: the container, its image and limits, whether it had network. */
export function ContainerRow({ container: c }: { container: TaskContainer }) {
  const limits = `${c.limits.cpus} CPU · ${c.limits.memoryMb >= 1024 ? `${Math.round((c.limits.memoryMb / 1024) * 10) / 10} GB` : `${c.limits.memoryMb} MB`} · ${c.limits.pids} processes`
  return (
    <div className="subagent-container" data-testid="subagent-container" data-state={c.state}>
      <span className="pill" title={`${c.name} on ${c.engine}`}>
        container · {c.image}
      </span>
      <span className="muted small" data-testid="container-summary">
        {STATE[c.state]} · {limits} · {c.network ? 'network on' : 'no network'}
        {c.error ? ` — ${c.error}` : ''}
      </span>
    </div>
  )
}
