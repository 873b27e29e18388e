import fs from 'node:fs'
import path from 'node:path'
import { diffArrays } from 'diff'
import { isMap, parseDocument, type Document } from 'yaml'
import { Config, describeZodIssues, ProviderConfig, type SandboxSettings, type SubagentLimits } from '../../src-shared'
import { userConfigPath } from './load-config'
import { parseYamlText } from './yaml-text'
import { readTextIfPresent } from '../files'

/**
 * A settings change. `Partial<Config>` fits; additionally `null` removes a setting
 * (`model: null` → back to the default model, `smallModel: null` → helpers use the session's model,
 * `providers: { x: null }` → remove provider x)
 * and `subagents` may name only the limits that change.
 */
export interface ConfigPatch {
  model?: string | null
  smallModel?: string | null
  providers?: Record<string, ProviderConfig | null>
  subagents?: Partial<SubagentLimits>
  sandbox?: Partial<SandboxSettings>
}

/**
 * Merges `patch` into `{dataDir}/config.yaml` and writes it back, keeping the user's comments
 * and layout. Throws (without touching the file) when the patch is invalid or the existing
 * file cannot be parsed — overwriting a file we could not read would lose the user's settings.
 */
export function writeConfigValue(dataDir: string, patch: ConfigPatch | Partial<Config>): void {
  validatePatch(patch)
  editConfig(dataDir, (doc) => {
    for (const key of ['model', 'smallModel'] as const) {
      if (patch[key] === null) doc.delete(key)
      else if (patch[key] !== undefined) doc.set(key, patch[key])
    }
    for (const [name, provider] of Object.entries(patch.providers ?? {})) {
      if (provider === null) deleteIn(doc, ['providers', name])
      else setIn(doc, ['providers', name], provider)
    }
    for (const [key, value] of Object.entries(patch.subagents ?? {})) {
      if (value !== undefined) setIn(doc, ['subagents', key], value)
    }
    for (const [key, value] of Object.entries(patch.sandbox ?? {})) {
      if (value !== undefined) setIn(doc, ['sandbox', key], value)
    }
  })
}

/**
 * Sets or removes settings by their dotted place in `{dataDir}/config.yaml` (`budgets.session.costUsd: 2`; null removes
 * it, and a section left empty with it), keeping the person's comments and layout. `candidate`: the config sections the
 * set values make, checked as the file will be read; throws without touching the file when they are invalid.
 */
export function writeConfigSettings(dataDir: string, values: Record<string, unknown>, candidate: Record<string, unknown>): void {
  const result = Config.safeParse(candidate)
  if (!result.success) {
    const problems = describeZodIssues(result.error.issues, candidate, Config)
    throw new Error(`Invalid settings: ${problems.map((p) => `${p.path}: ${p.reason}`).join('; ')}`)
  }
  editConfig(dataDir, (doc) => {
    for (const [key, value] of Object.entries(values)) {
      const segments = key.split('.')
      if (value !== null && value !== undefined) {
        setIn(doc, segments, value)
        continue
      }
      if (!doc.hasIn(segments)) continue
      doc.deleteIn(segments)
      for (let i = segments.length - 1; i > 0; i--) {
        const section = doc.getIn(segments.slice(0, i))
        if (!isMap(section) || section.items.length > 0) break
        doc.deleteIn(segments.slice(0, i))
      }
    }
  })
}

/**
 * Adds provider `name`, or changes its `type` and `baseURL` in place: the entry's other settings (models, pricing,
 * apiKeyEnv) and every comment stay as the person wrote them. `baseURL: undefined` removes the setting.
 */
export function writeProviderEntry(dataDir: string, name: string, fields: { type: ProviderConfig['type']; baseURL?: string }): void {
  editConfig(dataDir, (doc) => {
    const node = isMap(doc.get('providers')) ? doc.getIn(['providers', name]) : undefined
    if (!isMap(node)) {
      setIn(doc, ['providers', name], fields)
    } else {
      node.set('type', fields.type)
      if (fields.baseURL === undefined) node.delete('baseURL')
      else node.set('baseURL', fields.baseURL)
    }
    const entry = ProviderConfig.safeParse((doc.toJS() as { providers?: Record<string, unknown> }).providers?.[name])
    if (!entry.success) {
      const problems = describeZodIssues(entry.error.issues, undefined, ProviderConfig)
      throw new Error(`Invalid settings: ${problems.map((p) => `providers.${name}${p.path ? `.${p.path}` : ''}: ${p.reason}`).join('; ')}`)
    }
  })
}

/**
 * Reads `{dataDir}/config.yaml` as a YAML Document, lets `edit` change it, and writes it back (write-then-rename).
 * Throws without touching the file when it cannot be parsed or `edit` throws.
 */
function editConfig(dataDir: string, edit: (doc: Document) => void): void {
  const file = userConfigPath(dataDir)
  // No file yet: the patch becomes its first content.
  const text = readTextIfPresent(file) ?? ''
  const syntax = parseYamlText(text)
  if (!syntax.ok) {
    throw new Error(`Cannot update ${file}: ${syntax.errors[0].reason}. Fix the file first; it was left unchanged.`)
  }
  const doc = parseDocument(text)
  if (doc.contents !== null && !isMap(doc.contents)) {
    throw new Error(`Cannot update ${file}: it must be a mapping of settings (key: value). Fix the file first; it was left unchanged.`)
  }
  const before = doc.toString()
  edit(doc)
  fs.mkdirSync(dataDir, { recursive: true })
  // Write-then-rename so a crash mid-write never leaves a truncated config behind.
  const tmp = path.join(dataDir, `.${path.basename(file)}.${process.pid}.tmp`)
  fs.writeFileSync(tmp, keepUntouchedLines(text, before, doc.toString()))
  fs.renameSync(tmp, file)
}

/**
 * The Document API keeps comments and structure but re-prints every line in its own style (one space before a
 * `#` comment, its quoting). Lines the edit did not change are taken from the person's file as they were: the
 * re-printed file before and after the edit are compared line by line, and only lines that differ come from the
 * new text. When re-printing changed the number of lines (rare: re-wrapped flow collections), the new text is used.
 */
function keepUntouchedLines(original: string, reprinted: string, edited: string): string {
  const own = original.split('\n')
  if (own.length !== reprinted.split('\n').length) return edited
  const out: string[] = []
  let at = 0
  for (const part of diffArrays(reprinted.split('\n'), edited.split('\n'))) {
    if (part.added) out.push(...part.value)
    else if (part.removed) at += part.value.length
    else {
      out.push(...own.slice(at, at + part.value.length))
      at += part.value.length
    }
  }
  return out.join('\n')
}

function validatePatch(patch: ConfigPatch): void {
  const providers = Object.fromEntries(Object.entries(patch.providers ?? {}).filter(([, p]) => p !== null))
  const candidate = {
    ...(typeof patch.model === 'string' ? { model: patch.model } : {}),
    ...(typeof patch.smallModel === 'string' ? { smallModel: patch.smallModel } : {}),
    ...(patch.providers ? { providers } : {}),
    ...(patch.subagents ? { subagents: stripUndefined(patch.subagents) } : {}),
    ...(patch.sandbox ? { sandbox: stripUndefined(patch.sandbox) } : {}),
  }
  const result = Config.safeParse(candidate)
  if (result.success) return
  const problems = describeZodIssues(result.error.issues, candidate, Config)
  throw new Error(`Invalid settings: ${problems.map((p) => (p.path ? `${p.path}: ${p.reason}` : p.reason)).join('; ')}`)
}

function stripUndefined(obj: object): Record<string, unknown> {
  return Object.fromEntries(Object.entries(obj).filter(([, v]) => v !== undefined))
}

/** Like `doc.setIn`, but first turns an empty `providers:` / `subagents:` / `sandbox:` entry into a mapping. */
/** Sets a value at any depth; an empty section (`budgets:`, null) or a scalar where a section belongs becomes a mapping. */
function setIn(doc: Document, segments: string[], value: unknown): void {
  for (let i = 1; i < segments.length; i++) if (!isMap(doc.getIn(segments.slice(0, i)))) doc.setIn(segments.slice(0, i), doc.createNode({}))
  doc.setIn(segments, value)
}

function deleteIn(doc: Document, [section, key]: [string, string]): void {
  if (isMap(doc.get(section))) doc.deleteIn([section, key])
}
