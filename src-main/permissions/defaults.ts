/**
 * Written to `{dataDir}/permissions.jsonc` on first run. Kept as commented text (not generated
 * from data) because users read and edit this file; tests check it yields the intended outcomes.
 */
export const DEFAULT_PERMISSIONS_JSONC = `// Agentry permission rules (JSONC: comments and trailing commas are fine).
//
// Shape: { "<tool glob>": "allow" | "deny" | "ask" }
//    or: { "<tool glob>": { "<pattern glob>": "allow" | "deny" | "ask", ... } }
// Patterns are matched against: the path for file tools (workspace-relative; a pattern
// without "/" also matches the file name), the URL host for web_fetch, the subagent name for
// task, and each sub-command of a bash line ("ls && rm x" is checked as "ls" and "rm x").
//
// Within this file the LAST matching rule wins. These rules come after the agent's own rules
// and before your "Always allow" answers: an agent's deny can never be lifted, and a deny here
// cannot be lifted by "Always allow". Paths outside the workspace are only reachable through a
// rule whose pattern is an absolute path, e.g. "read_file": { "/usr/share/dict/**": "allow" }.
//
// A project can add rules in {workdir}/.agents/permissions.jsonc (read after this file).
// If this file is malformed it is reported and treated as "*": "ask" - never as allow.
{
  // Anything not listed below asks first (this includes plan_exit, which should always ask).
  "*": "ask",

  // Reading and searching the workspace is safe...
  "read_file": {
    "*": "allow",
    // ...except secrets. Order matters: the last matching rule wins.
    "*.env": "deny",
    "*.env.*": "deny",
    "**/.ssh/**": "deny",
    "*secret*": "deny",
    "*credentials*": "deny",
    // Example env files hold no secrets; this comes after the denies so it wins.
    "*.env.example": "allow"
  },
  "list_dir": "allow",
  "glob": "allow",
  "grep": "allow",
  "todo": "allow",
  "question": "allow",
  "task": "allow",
  // Loading an Agent Skill (its instructions; its folder is then readable, never writable).
  // Deny one by name: "skill": { "*": "allow", "internal-*": "deny" }.
  "skill": "allow",

  // Writing inside the workspace is fine, but never env files.
  "write_file": {
    "**": "allow",
    ".env*": "deny"
  },
  "edit_file": {
    "**": "allow",
    ".env*": "deny"
  },

  // Shell commands and network access ask first.
  "bash": "ask",
  "web_fetch": "ask",

  // Tools of MCP servers ("mcp__<server>__<tool>") ask first ("*" above says so too). Allow a
  // server or a tool by name, e.g. "mcp__github__get_issue": "allow" or "mcp__docs__*": "allow".
  "mcp__*": "ask"

  // Bash runs in an OS sandbox without network. To let commands reach the network, add:
  //   "network": "allow"
}
`
