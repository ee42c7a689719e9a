import { existsSync, readdirSync, statSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'

// The project's own fixtures: files in test/fixtures/ that Bureau's tests, e2e specs and benchmarks read,
// written for the project or made by its scripts (test/fixtures/make/; see the README). Other projects'
// files are not here: they are read from the third-party folder through ./requirements.ts
// (findThirdParty, describeNeeding). A missing or empty folder is an error, never a suite that quietly
// runs zero cases.

const fixturesRoot = fileURLToPath(new URL('../fixtures/', import.meta.url))

/** The absolute path of a fixture (`fixturePath('core', 'report.pdf')`); throws if it does not exist. */
export function fixturePath(...parts: string[]): string {
  const full = join(fixturesRoot, ...parts)
  if (!existsSync(full))
    throw new Error(`Test fixture missing: test/fixtures/${parts.join('/')} (see test/fixtures/README.md)`)
  return full
}

/** The entries of a fixture folder that pass `keep`, sorted; throws if the folder is missing or none pass. */
export function fixtureEntries(folder: string, keep: (name: string) => boolean = () => true): string[] {
  const dir = fixturePath(folder)
  if (!statSync(dir).isDirectory()) throw new Error(`Test fixture is not a folder: test/fixtures/${folder}`)
  const names = readdirSync(dir).filter(keep).sort()
  if (names.length === 0)
    throw new Error(`Test fixture folder has no matching files: test/fixtures/${folder}`)
  return names
}
