import type { BridgeClient } from '../../src-shared/bridge-client'

/** A host this process reaches: another process's (attached over its local socket) or its own. */
export interface HostHandle {
  api: BridgeClient
  /** true: the app, `agentry serve` or another command runs the host; false: this process does */
  attached: boolean
  release(): Promise<void>
}

/**
 * The connection to the data dir's host, made when first needed and made again after the host went away (an attached
 * host stopped: this process then attaches to the next one or runs its own, which takes over the data dir and
 * cleans up after the one that died). Everything the editor asks goes through `get()`.
 */
export class HostLink {
  private current: Promise<HostHandle> | undefined
  private closed = false

  constructor(
    private readonly connect: () => Promise<HostHandle>,
    /** the host went away under us (not at `close()`) */
    private readonly onLost: (reason: string) => void,
  ) {}

  get(): Promise<HostHandle> {
    if (this.closed) return Promise.reject(new Error('Agentry is shutting down.'))
    if (this.current) return this.current
    const attempt = this.connect()
    this.current = attempt
    attempt.then(
      (handle) => {
        void handle.api.closed.then(() => {
          if (this.current !== attempt || this.closed) return
          this.current = undefined
          this.onLost('The Agentry host stopped (it was another process that ended, or it failed).')
        })
      },
      () => {
        // A failed start is reported to whoever asked; the next request tries again.
        if (this.current === attempt) this.current = undefined
      },
    )
    return attempt
  }

  /** The current host, if connected (no attempt is made). */
  async peek(): Promise<HostHandle | undefined> {
    return this.current?.catch(() => undefined)
  }

  /** Disconnect, or stop this process's own host once the commands attached to it are done. */
  async close(): Promise<void> {
    this.closed = true
    const handle = await this.current?.catch(() => undefined)
    this.current = undefined
    await handle?.release()
  }
}
