import { vi } from 'vitest'

/** Sets environment variables in this process until `vi.unstubAllEnvs()` puts the old values back. */
export function stubEnv(vars: Record<string, string>): void {
  for (const [name, value] of Object.entries(vars)) vi.stubEnv(name, value)
}
