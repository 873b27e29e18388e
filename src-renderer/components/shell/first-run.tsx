import { useState } from 'react'
import type { UiError } from '../../state/ui-error'
import { useSessions } from '../../state/sessions-store'
import { sendPrompt } from '../../state/session-actions'
import { useAgents } from '../../state/agents-store'
import { useSettings } from '../../state/settings-store'
import { useCurrentModel } from '../../state/models-store'
import { openSettings } from '../../state/ui-store'
import { ErrorNote } from '../common/error-note'

export const DEMO_PROMPT = 'Show me how you work: explore this project with a few subagents and summarize what you find.'

/** Empty state. On a first run it explains the offline demo model and how to add a real provider. */
export function FirstRun() {
  const count = useSessions((s) => Object.keys(s.byId).length)
  const loaded = useSessions((s) => s.loaded)
  // The model this new session will run on (a pick in the chip, else the default), not just the saved default.
  const model = useCurrentModel()
  const hasProvider = useSettings((s) => (s.settings?.providers ?? []).some((p) => p.name !== 'demo' && p.type !== 'demo'))
  const selected = useAgents((s) => s.selected)
  const [error, setError] = useState<UiError | null>(null)
  const [busy, setBusy] = useState(false)
  const firstRun = loaded && count === 0
  const demo = model === null || model.startsWith('demo/')

  const tryDemo = async () => {
    setBusy(true)
    setError(await sendPrompt(DEMO_PROMPT, selected))
    setBusy(false)
  }

  return (
    <div className="first-run" data-testid={firstRun ? 'first-run' : 'empty-state'}>
      <div className="first-run-card">
        <div className="hero-mark" aria-hidden>◆</div>
        <h1>{firstRun ? 'Welcome to Agentry' : 'Start a new session'}</h1>
        <p>
          Pick an agent below, describe what you want, and watch it delegate to subagents — each one's work shows up nested in
          the conversation, and anything risky waits for your approval.
        </p>
        {demo && (
          <div className="callout info" data-testid="demo-explainer">
            <div className="callout-title">You are using the offline demo model</div>
            No API key is needed: <code>{model ?? 'demo/…'}</code> is a scripted model that runs entirely on this computer. It plays
            a short conversation with a subagent fan-out, nested transcripts and an approval request, so you can see the whole
            flow before connecting a real provider.
          </div>
        )}
        <div className="row center">
          <button className="btn primary lg" data-testid="demo-prompt" disabled={busy} onClick={() => void tryDemo()}>
            ▶ {demo ? 'Run the demo' : 'Try a sample prompt'}
          </button>
          {!hasProvider && (
            <button className="btn lg" data-testid="add-provider" onClick={() => openSettings('providers')}>
              Add a real provider
            </button>
          )}
        </div>
        {error && <ErrorNote error={error} onDismiss={() => setError(null)} />}
        {!hasProvider ? (
          <p className="muted small">
            To use a real model: Settings › Providers › Add provider (Anthropic, OpenAI, an OpenAI-compatible server or
            Ollama) with its key, then pick one of its models in the model chip below — it becomes your default.
          </p>
        ) : (
          demo && (
            <p className="muted small" data-testid="pick-a-model">
              Your provider is set up: pick one of its models in the model chip below — it becomes your default.
            </p>
          )
        )}
      </div>
    </div>
  )
}
