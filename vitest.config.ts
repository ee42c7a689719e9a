import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, sep } from 'node:path'
import { defineConfig } from 'vitest/config'

const pkg = JSON.parse(readFileSync(new URL('./package.json', import.meta.url), 'utf8')) as {
  version: string
}

/**
 * Test files that need a process of their own: they replace modules (`vi.mock`), raise process signals, or they load
 * native add-ons (the whole app with its LanceDB index, llama.cpp), which must not outlive the file in a
 * shared worker. Found by what the file contains, so a new file of either kind is placed by itself.
 */
const NEEDS_OWN_PROCESS =
  /vi\.(do)?[mM]ock\(|process\.emit\(|createApp|support\/ipcHost|src\/main\/knowledge|\/knowledge\/harness|llm\/local|src\/main\/models|node-llama-cpp|@lancedb|sherpa-onnx/
const testFiles = readdirSync('test', { recursive: true, encoding: 'utf8' }).map(
  (file) => `test/${file.split(sep).join('/')}`,
)
const ownProcess = testFiles
  .filter((file) => /^test\/(main|shared|scripts|support|renderer)\/.*\.test\.tsx?$/.test(file))
  .filter((file) => NEEDS_OWN_PROCESS.test(readFileSync(file, 'utf8')))

// A file that imports the tier helper runs in both tiers: its short tests in `npm test`, its long ones in the soak
// tier (test/support/tier.ts).
const bothTiers = testFiles
  .filter((file) => /\.test\.tsx?$/.test(file) && !/\.soak\.test\.tsx?$/.test(file))
  .filter((file) => /from '(\.\.\/)+support\/tier'/.test(readFileSync(file, 'utf8')))

const codeCacheOfThisRun = mkdtempSync(join(tmpdir(), 'bureau-test-code-cache-'))
process.on('exit', () => rmSync(codeCacheOfThisRun, { recursive: true, force: true }))

// Two tiers: `npm test` runs every test file but the soak files (`*.soak.test.ts`: long hammering,
// corpus-wide round trips, whole-suite replays); `npm run test:soak` (`vitest run --mode soak`) runs those and the
// soak half of the files that run in both tiers.
const SOAK = '**/*.soak.test.{ts,tsx}'

export default defineConfig(({ mode }) => ({
  define: { __BUREAU_VERSION__: JSON.stringify(pkg.version) },
  test: {
    environment: 'node',
    // The built CLI's conversion worker keeps V8's code cache in the user's cache folder; tests keep it
    // in a private folder of this run (the code cache's own tests choose their folders).
    env: { BUREAU_CODE_CACHE: codeCacheOfThisRun },
    // Generous: a waiting test must survive a loaded 2-core machine; a real hang still fails.
    testTimeout: 60_000,
    // A file that runs in both tiers leaves a block of the other tier's tests empty here; that is no failure.
    passWithNoTests: true,
    hookTimeout: 30_000,
    // Two cores, three workers: many files wait on child processes (the CLI, LibreOffice, Chromium), so a
    // third keeps the cores busy (measured: 161% CPU, 483 s against 533 s with two).
    maxWorkers: 3,
    projects:
      mode === 'soak'
        ? [
            {
              extends: true,
              test: {
                name: 'soak',
                include: [`test/${SOAK}`, ...bothTiers],
                env: { BUREAU_CODE_CACHE: codeCacheOfThisRun, BUREAU_TEST_TIER: 'soak' },
              },
            },
          ]
        : [
            {
              extends: true,
              test: {
                name: 'node',
                include: ['test/{main,shared,scripts,support}/**/*.test.ts'],
                exclude: [...ownProcess, SOAK],
                // The other Node-side files share a worker's module cache: importing the app's modules again
                // for each file cost more than half of their time. Each file still starts its own services.
                isolate: false,
              },
            },
            {
              extends: true,
              test: {
                name: 'renderer',
                include: ['test/renderer/**/*.test.{ts,tsx}'],
                exclude: [...ownProcess, SOAK],
                // As on the Node side: each file renders into a fresh DOM of its environment, and the shared
                // module cache spares each file importing React and the app's modules again.
                isolate: false,
              },
            },
            {
              extends: true,
              test: {
                name: 'isolated',
                include: ownProcess,
                exclude: [SOAK],
              },
            },
          ],
  },
}))
