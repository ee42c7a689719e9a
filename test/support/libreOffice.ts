import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'

// One LibreOffice profile per test process instead of one per soffice run: a first start in a new profile
// builds it (several seconds of each run on this machine), a later start reuses it. Two soffice processes on one
// profile would hand their work to each other, so runs of this process take turns; each worker process has a
// profile of its own. A run that fails leaves its profile behind (a stale lock or half-written state must not
// reach the next run), and the next run builds a new one.

/** LibreOffice recomputes every formula of an .xlsx on load, so the spreadsheet tests check our results instead of reading them. */
const ALWAYS_RECALC = `<?xml version="1.0" encoding="UTF-8"?>
<oor:items xmlns:oor="http://openoffice.org/2001/registry" xmlns:xs="http://www.w3.org/2001/XMLSchema" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance">
<item oor:path="/org.openoffice.Office.Calc/Formula/Load"><prop oor:name="OOXMLRecalcMode" oor:op="fuse"><value>0</value></prop></item>
</oor:items>
`

let profile: string | undefined
let turn: Promise<unknown> = Promise.resolve()
/** How many profiles this process has built (the tests of this helper read it). */
let built = 0

function discard(): void {
  if (profile) rmSync(profile, { recursive: true, force: true })
  profile = undefined
}
process.on('exit', discard)

function currentProfile(): string {
  if (!profile) {
    profile = mkdtempSync(join(tmpdir(), 'bureau-lo-profile-'))
    mkdirSync(join(profile, 'user'))
    writeFileSync(join(profile, 'user', 'registrymodifications.xcu'), ALWAYS_RECALC)
    built++
  }
  return profile
}

/**
 * Runs `run` with the `-env:UserInstallation=…` argument of this process's LibreOffice profile, after every
 * earlier run of this process has finished.
 */
export function withLibreOfficeProfile<T>(run: (userInstallation: string) => Promise<T>): Promise<T> {
  const next = turn.then(async () => {
    try {
      return await run(`-env:UserInstallation=file://${currentProfile()}`)
    } catch (error) {
      discard()
      throw error
    }
  })
  turn = next.catch(() => undefined)
  return next
}

/** Profiles built by this process so far. */
export function libreOfficeProfilesBuilt(): number {
  return built
}
