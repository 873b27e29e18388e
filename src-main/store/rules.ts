import type Database from 'better-sqlite3'
import { z } from 'zod'
import { PermissionAction, RuleScope } from '../../src-shared'
import type { RuntimeRule } from '../../src-shared'
import { newId } from './new-id'
import { checkInput } from './sql-json'
import { statementCache, whereEquals } from './statement-cache'

export type RuleFilter = { scope?: RuleScope; scopeKey?: string }

type RuleRow = {
  id: string
  scope: RuleScope
  scope_key: string
  tool: string
  pattern: string
  action: PermissionAction
  created_at: number
}

const AddSchema = z.object({
  scope: RuleScope,
  scopeKey: z.string().min(1),
  tool: z.string().min(1),
  pattern: z.string().min(1),
  action: PermissionAction,
})

function toRule(r: RuleRow): RuntimeRule {
  return {
    id: r.id,
    scope: r.scope,
    scopeKey: r.scope_key,
    tool: r.tool,
    pattern: r.pattern,
    action: r.action,
    createdAt: r.created_at,
  }
}

/** Runtime "always" rules, in creation order (later rules win when the evaluator applies them). */
export function createRuleRepo(db: Database.Database) {
  const insert = db.prepare(
    `INSERT INTO permission_rules (id, scope, scope_key, tool, pattern, action, created_at)
     VALUES (@id, @scope, @scopeKey, @tool, @pattern, @action, @createdAt)`,
  )
  const remove = db.prepare<[string]>('DELETE FROM permission_rules WHERE id = ?')
  const listStatement = statementCache<RuleRow>(db)

  return {
    add(input: Omit<RuntimeRule, 'id' | 'createdAt'>): RuntimeRule {
      const r = checkInput(AddSchema, input, 'addRule')
      const rule: RuntimeRule = { ...r, id: newId('rul'), createdAt: Date.now() }
      insert.run(rule)
      return rule
    },

    list(f: RuleFilter = {}): RuntimeRule[] {
      if (f.scope !== undefined) checkInput(RuleScope, f.scope, 'listRules scope')
      const where = whereEquals({ scope: f.scope, scope_key: f.scopeKey })
      return listStatement(`SELECT * FROM permission_rules${where.sql} ORDER BY id`).all(...where.params).map(toRule)
    },

    /** false when no rule had that id */
    revoke(id: string): boolean {
      return remove.run(id).changes > 0
    },
  }
}

export type RuleRepo = ReturnType<typeof createRuleRepo>
