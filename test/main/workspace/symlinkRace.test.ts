import { lstat, readFile } from 'node:fs/promises'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it, type TestContext } from 'vitest'
import { REQUIREMENTS_ENFORCED, recordSkip } from '../../support/requirements'
import { currentTier, type Tier } from '../../support/tier'
import { perThousand, RACE_CANARY, type Race, startRace, type Tally } from './swapRace'

/** The symlink swap race; `tier` sets how hard it hammers (npm test a short run, the soak tier a long one). */
function symlinkRaceSuite(tier: Tier): void {
  // Under the renameat2(RENAME_EXCHANGE) swap loop (see swapRace.ts). Before the anchored walk, 5–25% of calls
  // escaped (files read 157 of ~1,500, mkdir 449). npm test makes 40 calls per operation (at 5%, a chance of 13%
  // to miss an escape in one operation, far less across the eleven); the soak tier makes 1,000, and
  // `npm run bench workspaceRace` measures the rate.
  const CALLS = tier === 'fast' ? 40 : 1_000
  // Each of these writes commits to the history (slower): fewer calls, still many swaps each.
  const HISTORY_CALLS = tier === 'fast' ? 20 : 300
  // Bounds the run on a busy machine (a loop bound, not an assertion).
  const BUDGET_MS = tier === 'fast' ? 4_000 : 60_000

  let race: Race | undefined
  let skipReason = ''

  beforeAll(async () => {
    const started = await startRace()
    if ('reason' in started) {
      skipReason = started.reason
      if (!REQUIREMENTS_ENFORCED) recordSkip('symlink swap race', [{ reason: skipReason, apt: ['gcc'] }])
    } else race = started
  }, 60_000)

  /** The running race; where the swap loop cannot run, the test is skipped (it fails under BUREAU_CI). */
  function needRace(skip: TestContext['skip']): Race {
    if (race) return race
    if (REQUIREMENTS_ENFORCED) throw new Error(`the symlink swap race cannot run here: ${skipReason}`)
    skip(skipReason)
    throw new Error(`skipped: ${skipReason}`)
  }

  afterAll(async () => {
    await race?.stop()
  })

  function report(name: string, tally: Tally, extra = ''): void {
    console.log(
      `${name}: ${tally.escapes} escapes in ${tally.calls} calls, ${tally.succeeded} succeeded (${perThousand(tally).toFixed(1)} per 1,000)${extra}${tally.examples.length ? `, e.g. ${tally.examples.join(' | ')}` : ''}`,
    )
  }

  const names = [
    'files read',
    'convert to_markdown',
    'files write_text (new)',
    'files write_text (overwrite)',
    'files append_text',
    'files copy (from /flip)',
    'files copy (into /flip)',
    'files mkdir',
    'files move (into /flip)',
    'files list',
    'files delete',
  ]

  describe('symlink swap race (renameat2 RENAME_EXCHANGE loop)', () => {
    it('covers every operation of the race, with the loop really swapping', async ({ skip }) => {
      const race = needRace(skip)
      expect(race.operations.map((operation) => operation.name)).toEqual(names)
      // The folder and the link trade places all along: both are seen within a few hundred looks.
      const seen = new Set<string>()
      for (let look = 0; look < 5_000 && seen.size < 2; look++)
        seen.add((await lstat(path.join(race.root, 'flip'))).isSymbolicLink() ? 'link' : 'folder')
      expect([...seen].sort()).toEqual(['folder', 'link'])
    })

    it.for(names)(
      '%s: no escape',
      { timeout: tier === 'fast' ? 60_000 : 180_000 },
      async (name, { skip }) => {
        const race = needRace(skip)
        const operation = race.operations.find((candidate) => candidate.name === name)
        if (!operation) throw new Error(`no race operation ${name}`)
        const tally = await race.hammer(operation, CALLS, BUDGET_MS)
        report(name, tally)
        expect(tally.calls).toBeGreaterThan(0)
        expect(tally.escapes).toBe(0)
      },
    )

    it(
      'files write_text with history on: no recorded version holds outside content',
      async ({ skip }) => {
        const race = needRace(skip)
        const tally = await race.hammerHistory(HISTORY_CALLS, BUDGET_MS)
        report(
          'files write_text with history',
          tally,
          `, ${tally.versions} versions (${tally.leakedVersions} with outside content)`,
        )
        expect(tally.calls).toBeGreaterThan(0)
        expect(tally.versions).toBeGreaterThan(0)
        expect(tally.escapes).toBe(0)
      },
      tier === 'fast' ? 60_000 : 180_000,
    )

    it('left the outside folder with only its own files', async ({ skip }) => {
      const race = needRace(skip)
      expect(await race.outsideNames()).toEqual(['a.txt', 'canary.txt', 'f.txt', 'h.txt'])
      for (const name of ['a.txt', 'f.txt', 'h.txt'])
        expect(await readFile(path.join(race.outside, name), 'utf8')).toBe(`${RACE_CANARY}\n`)
    })
  })
}

symlinkRaceSuite(currentTier())
