/** Shortens text a caller sent before it is echoed in a message. */
export function clip(text: string, max = 80): string {
  return text.length > max ? `${text.slice(0, max - 3)}...` : text
}

// Catalogs, help and name resolution ask for the same few hundred method names again and again.
const snakeCache = new Map<string, string>()
const SNAKE_CACHE_SIZE = 4096

/** `setCellValue` -> `set_cell_value`, `getHTMLTable` -> `get_html_table`. */
export function toSnakeCase(name: string): string {
  const known = snakeCache.get(name)
  if (known !== undefined) return known
  const snake = name
    .replace(/([a-z0-9])([A-Z])/g, '$1_$2')
    .replace(/([A-Z]+)([A-Z][a-z])/g, '$1_$2')
    .replace(/[-\s.]+/g, '_')
    .toLowerCase()
  if (snakeCache.size >= SNAKE_CACHE_SIZE) snakeCache.clear()
  snakeCache.set(name, snake)
  return snake
}

export function toKebabCase(name: string): string {
  return toSnakeCase(name).replace(/_/g, '-')
}

/** The key every spelling of a name maps to: `Set-Cell_value` and `setCellValue` both give `setcellvalue`. */
export function nameKey(name: string): string {
  return name.replace(/[-_\s./:]+/g, '').toLowerCase()
}

/** The API-mode function name of a method: `<toolset>_<method_in_snake_case>`. */
export function apiToolName(toolset: string, method: string): string {
  return `${toolset}_${toSnakeCase(method)}`
}

/** The CLI-mode spelling of a method: `set_cell_value`. */
export function cliMethodName(method: string): string {
  return toSnakeCase(method)
}

/** The CLI-mode option for a field: `dataRange` and `data_range` -> `--data-range`. */
export function cliOptionName(field: string): string {
  return `--${toKebabCase(field)}`
}
