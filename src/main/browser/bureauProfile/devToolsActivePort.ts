import { readFile, rm } from 'node:fs/promises'
import { join } from 'node:path'

export const ACTIVE_PORT_FILE = 'DevToolsActivePort'

export interface DevToolsEndpoint {
  /** http://127.0.0.1:PORT: what connectOverCDP and the setting take. */
  endpoint: string
  /** ws://127.0.0.1:PORT/devtools/browser/ID */
  wsEndpoint: string
  port: number
}

/** Reads `DevToolsActivePort` (port on line 1, browser target path on line 2); null while it is not there. */
export async function readActivePort(userDataDir: string): Promise<DevToolsEndpoint | null> {
  let text: string
  try {
    text = await readFile(join(userDataDir, ACTIVE_PORT_FILE), 'utf8')
  } catch {
    return null
  }
  const [portLine, path] = text.split('\n').map((line) => line.trim())
  const port = Number(portLine)
  if (!Number.isInteger(port) || port <= 0 || !path) return null
  return { port, endpoint: `http://127.0.0.1:${port}`, wsEndpoint: `ws://127.0.0.1:${port}${path}` }
}

export function removeActivePort(userDataDir: string): Promise<void> {
  return rm(join(userDataDir, ACTIVE_PORT_FILE), { force: true })
}

/** True when a DevTools server answers on the endpoint. */
export async function endpointAnswers(endpoint: string, timeoutMs = 1_500): Promise<boolean> {
  try {
    const response = await fetch(`${endpoint}/json/version`, { signal: AbortSignal.timeout(timeoutMs) })
    return response.ok
  } catch {
    return false
  }
}
