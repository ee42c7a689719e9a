import { execFileSync } from 'node:child_process'
import { createHash } from 'node:crypto'
import { readdirSync, readFileSync, statSync } from 'node:fs'
import { join, relative } from 'node:path'
import { describe, expect, it } from 'vitest'
import { repoRoot } from '../support/builtCli'
import { describeNeeding, thirdPartyDir } from '../support/requirements'

// Other projects' files are read from the third-party folder beside the checkout, never committed: no
// tracked file of the test, eval, e2e or bench trees may have the same bytes as one of them.

const sha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex')

/** Every file under `dir` (recursively), as size -> paths, so only same-size files are ever hashed. */
function filesBySize(dir: string): Map<number, string[]> {
  const bySize = new Map<number, string[]>()
  for (const name of readdirSync(dir, { recursive: true, encoding: 'utf8' })) {
    const path = join(dir, name)
    const stat = statSync(path)
    if (!stat.isFile()) continue
    bySize.set(stat.size, [...(bySize.get(stat.size) ?? []), path])
  }
  return bySize
}

/** `tracked` (paths relative to `root`) whose bytes equal a file under `thirdParty`: "ours = theirs". */
function copiesOf(root: string, tracked: string[], thirdParty: string): string[] {
  const theirs = filesBySize(thirdParty)
  const hashes = new Map<string, string>()
  const hashOf = (path: string) => {
    let hash = hashes.get(path)
    if (!hash) {
      hash = sha256(readFileSync(path))
      hashes.set(path, hash)
    }
    return hash
  }
  const found: string[] = []
  for (const file of tracked) {
    const path = join(root, file)
    const stat = statSync(path, { throwIfNoEntry: false })
    // Empty files are equal to any other empty file; they carry nothing of anyone's.
    if (!stat?.isFile() || stat.size === 0) continue
    const same = (theirs.get(stat.size) ?? []).find((other) => hashOf(other) === hashOf(path))
    if (same) found.push(`${file} = ${relative(thirdParty, same)}`)
  }
  return found
}

describeNeeding([{ thirdParty: 'corpus' }], 'no third-party file is committed', () => {
  it('no tracked file under test/, eval/, e2e/ or bench/ has the bytes of a third-party file', () => {
    const tracked = execFileSync('git', ['ls-files', '--cached', 'test', 'eval', 'e2e', 'bench'], {
      cwd: repoRoot,
      encoding: 'utf8',
    })
      .split('\n')
      .filter(Boolean)
    expect(tracked.length).toBeGreaterThan(300)
    expect(copiesOf(repoRoot, tracked, thirdPartyDir())).toEqual([])
  })
})

describe('the byte comparison itself', () => {
  it('finds a copy under another name, and not a file that only shares the size', async () => {
    const { mkdtemp, mkdir, writeFile, rm } = await import('node:fs/promises')
    const { tmpdir } = await import('node:os')
    const base = await mkdtemp(join(tmpdir(), 'bureau-copies-'))
    try {
      await mkdir(join(base, 'ours', 'a'), { recursive: true })
      await mkdir(join(base, 'theirs', 'deep', 'er'), { recursive: true })
      await writeFile(join(base, 'theirs', 'deep', 'er', 'original.bin'), 'their bytes')
      await writeFile(join(base, 'ours', 'a', 'renamed.bin'), 'their bytes')
      await writeFile(join(base, 'ours', 'a', 'same-size.bin'), 'our  bytes!')
      await writeFile(join(base, 'ours', 'empty.txt'), '')
      const tracked = ['a/renamed.bin', 'a/same-size.bin', 'empty.txt', 'deleted.txt']
      expect(copiesOf(join(base, 'ours'), tracked, join(base, 'theirs'))).toEqual([
        'a/renamed.bin = deep/er/original.bin',
      ])
    } finally {
      await rm(base, { recursive: true, force: true })
    }
  })
})
