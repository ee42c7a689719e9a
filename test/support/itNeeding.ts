import { it } from 'vitest'
import { missingRequirements, REQUIREMENTS_ENFORCED, type Requirement, recordSkip } from './requirements'

/**
 * One test that needs something from outside the repository, inside a suite that does not: `it` where
 * everything is present; missing, a skip with the printed reason, or under BUREAU_CI a failure naming it.
 */
export function itNeeding(
  requirements: Requirement[],
  name: string,
  body: () => unknown,
  timeout?: number,
): void {
  const missing = missingRequirements(requirements)
  if (missing.length === 0) {
    it(name, body, timeout)
    return
  }
  if (REQUIREMENTS_ENFORCED) {
    it(name, () => {
      throw new Error(`${name}: ${missing.map((m) => m.reason).join('; ')}`)
    })
    return
  }
  recordSkip(name, missing)
  it.skip(name, body)
}
