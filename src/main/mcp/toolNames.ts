import { apiToolName } from '../tools'

/** Words of a name in any style: `get-tiny-image`, `read_file`, `listURLs` -> [get, tiny, image], … */
function words(name: string): string[] {
  return name
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .replace(/([A-Z]+)([A-Z][a-z])/g, '$1 $2')
    .split(/[^A-Za-z0-9]+/)
    .filter(Boolean)
    .map((w) => w.toLowerCase())
}

/** `Brave Search` -> `brave_search`: a toolset name (lowercase, digits, `_`, starting with a letter). */
export function toolsetNameOf(server: string): string {
  const name = words(server).join('_').slice(0, 40)
  return /^[a-z]/.test(name) ? name : `mcp_${name || 'server'}`.slice(0, 40)
}

/**
 * Method keys for a server's tools: camelCase, unique, and short enough that `<toolset>_<method>`
 * stays within the 64 characters providers accept. Returns key -> original tool name.
 */
export function methodKeysOf(toolset: string, tools: readonly string[]): Map<string, string> {
  const keys = new Map<string, string>()
  for (const tool of tools) {
    const [first = 'tool', ...rest] = words(tool)
    let key = [first, ...rest.map((w) => w[0]?.toUpperCase() + w.slice(1))].join('')
    if (!/^[a-z]/.test(key)) key = `tool${key[0]?.toUpperCase() ?? ''}${key.slice(1)}`
    // Room for a numeric suffix when two tools map to one key.
    while (key.length > 1 && apiToolName(toolset, key).length > 60) key = key.slice(0, -1)
    let unique = key
    for (let n = 2; keys.has(unique); n++) unique = `${key}${n}`
    keys.set(unique, tool)
  }
  return keys
}
