// The split lives with the YAML reader in config/ (skills and commands read frontmatter too).
export { splitFrontmatter, type SplitResult } from '../config'
