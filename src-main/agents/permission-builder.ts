import type { CompactPermission, PermissionAction } from '../../src-shared'

/**
 * Builds an agent's permission map from the parts of its file (a tools allow-list, a `permission` map,
 * `disallowedTools`…) in the order they apply: within an agent's rules the last matching rule wins.
 */
export class PermissionBuilder {
  private readonly map: CompactPermission = {}

  /** Sets the tool's rule (all its patterns) in place, as a later key of the same map would (opencode's merge). */
  set(tool: string, value: CompactPermission[string]): void {
    this.map[tool] = typeof value === 'string' ? value : { ...value }
  }

  /** Adds one pattern's rule to a tool, keeping the tool's other patterns. */
  add(tool: string, pattern: string | undefined, action: PermissionAction): void {
    if (pattern === undefined) return this.set(tool, action)
    const prev = this.map[tool]
    this.map[tool] = typeof prev === 'string' ? { '*': prev, [pattern]: action } : { ...prev, [pattern]: action }
  }

  /** A deny that must hold over everything before it: the rule moves to the end of the map. */
  denyLast(tool: string, pattern?: string): void {
    const prev = this.map[tool]
    delete this.map[tool]
    if (pattern === undefined || prev === undefined) this.map[tool] = pattern === undefined ? 'deny' : { [pattern]: 'deny' }
    else this.map[tool] = typeof prev === 'string' ? { '*': prev, [pattern]: 'deny' } : { ...prev, [pattern]: 'deny' }
  }

  has(tool: string): boolean {
    return Object.hasOwn(this.map, tool)
  }

  /**
   * The finished map. Without a `*` rule the default `*: allow` comes first, so a map that names only some tools
   * keeps the default for the rest — as opencode and Claude Code do.
   */
  build(): CompactPermission {
    return this.has('*') ? { ...this.map } : { '*': 'allow', ...this.map }
  }
}
