import type { RunLevel } from '../runtime'
import { ToolError } from '../tools'

/** The window in which repeated starts of the same background task count as a loop. */
const WINDOW_MS = 10 * 60_000

/**
 * A background child re-spawned in a loop: a parent woken by a background result that starts the same task again,
 * and again. The same agent with the same prompt, started `runaway.backgroundRespawns` times in one conversation
 * within ten minutes, is refused the next time — with a reason the model can act on.
 */
export class RespawnGuard {
  private readonly starts = new Map<string, Map<string, number[]>>()

  check(level: RunLevel, agentName: string, prompt: string, now = Date.now()): void {
    const limit = level.settings.config.config.runaway.backgroundRespawns
    let byTask = this.starts.get(level.rootSessionId)
    if (!byTask) this.starts.set(level.rootSessionId, (byTask = new Map()))
    const key = `${agentName}\u0000${prompt}`
    const recent = (byTask.get(key) ?? []).filter((t) => now - t < WINDOW_MS)
    if (recent.length >= limit) {
      byTask.set(key, recent)
      throw new ToolError(
        `Refused: this background task (${agentName}, the same prompt) was already started ${recent.length} times in the last 10 minutes of this conversation (runaway.backgroundRespawns in config.yaml). Starting it again would repeat a loop: use the results you have, change the task, or ask the person.`,
      )
    }
    recent.push(now)
    byTask.set(key, recent)
  }

  forget(rootSessionId: string): void {
    this.starts.delete(rootSessionId)
  }
}
