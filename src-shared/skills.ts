import { z } from 'zod'

/** A problem in a skill's SKILL.md that the loader recovered from (or that removed the skill), with where it is. */
export const SkillProblem = z.object({
  file: z.string(),
  /** 1-based line in the file, when the problem has one */
  line: z.number().int().optional(),
  field: z.string().optional(),
  reason: z.string(),
})
export type SkillProblem = z.infer<typeof SkillProblem>

/** Where a skill comes from: the person's own folders (always offered) or the workspace's (offered once trusted). */
export const SkillSource = z.enum(['person', 'workspace'])
export type SkillSource = z.infer<typeof SkillSource>

/** One loaded skill (issue 27): a folder with a SKILL.md, as `skills.list`, Settings and `agentry skills` show it. */
export const SkillEntry = z.object({
  name: z.string(),
  description: z.string(),
  source: SkillSource,
  /** the SKILL.md file (absolute) */
  file: z.string(),
  /** the skill's folder, real path: readable by the file tools, never writable */
  dir: z.string(),
  /** `allowed-tools` as written (listed; see README: not a grant) */
  allowedTools: z.array(z.string()),
  license: z.string().optional(),
  /** false: the workspace is not trusted, so the model is not offered it; or `disable-model-invocation: true` */
  offered: z.boolean(),
  /** why it is not offered, when it is not */
  notOffered: z.string().optional(),
  warnings: z.array(SkillProblem),
})
export type SkillEntry = z.infer<typeof SkillEntry>

export const SkillsListing = z.object({
  skills: z.array(SkillEntry),
  /** SKILL.md files that could not be loaded, each with its reason */
  errors: z.array(SkillProblem),
  /** the skill folders read, in order (existing ones) */
  folders: z.array(z.object({ dir: z.string(), source: SkillSource })),
})
export type SkillsListing = z.infer<typeof SkillsListing>
