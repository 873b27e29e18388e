import { setTheme, useTheme, type Theme } from '../../state/theme'

const CHOICES: { value: Theme; label: string }[] = [
  { value: 'system', label: 'As the system' },
  { value: 'light', label: 'Light' },
  { value: 'dark', label: 'Dark' },
]

/** Settings › Appearance: light, dark, or following the OS (kept in this browser or app window's storage). */
export function AppearanceSection() {
  const theme = useTheme((s) => s.theme)
  return (
    <section className="card" data-testid="settings-appearance" aria-labelledby="settings-appearance-title">
      <h2 id="settings-appearance-title">Appearance</h2>
      <div className="segmented" role="radiogroup" aria-labelledby="settings-appearance-title">
        {CHOICES.map((c) => (
          <label key={c.value} className={`segment ${theme === c.value ? 'current' : ''}`}>
            <input type="radio" name="theme" value={c.value} checked={theme === c.value} onChange={() => setTheme(c.value)} data-testid={`theme-${c.value}`} />
            {c.label}
          </label>
        ))}
      </div>
    </section>
  )
}
