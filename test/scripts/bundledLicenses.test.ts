import { existsSync, readFileSync } from 'node:fs'
import { join, sep } from 'node:path'
import { describe, expect, it } from 'vitest'
import { packageRootOf } from '../../scripts/bundledLicenses'
import { repoRoot } from '../support/builtCli'

const p = (...parts: string[]) => parts.join(sep)

describe('packageRootOf', () => {
  it('finds the package folder of a bundled file, scoped, nested or marked by a plugin', () => {
    expect(packageRootOf(p('', 'repo', 'node_modules', 'mammoth', 'lib', 'index.js'))).toBe(
      p('', 'repo', 'node_modules', 'mammoth'),
    )
    expect(packageRootOf(p('', 'repo', 'node_modules', '@mixmark-io', 'domino', 'lib', 'a.js'))).toBe(
      p('', 'repo', 'node_modules', '@mixmark-io', 'domino'),
    )
    expect(
      packageRootOf(`\0${p('', 'repo', 'node_modules', 'a', 'node_modules', 'b', 'x.js')}?commonjs-module`),
    ).toBe(p('', 'repo', 'node_modules', 'a', 'node_modules', 'b'))
    expect(packageRootOf(p('', 'repo', 'src', 'main', 'index.ts'))).toBeUndefined()
  })
})

describe('the built main bundle', () => {
  const file = join(repoRoot, 'out', 'main', 'THIRD_PARTY_LICENSES.txt')

  it('ships the licence of every library bundled into it', () => {
    expect(existsSync(file), 'run `npm run build` first (npm test does)').toBe(true)
    const text = readFileSync(file, 'utf8')
    for (const name of ['zod@', 'commander@', 'turndown@']) expect(text).toContain(`\n${name}`)
    // External dependencies keep their own licence files in node_modules.
    expect(text).not.toContain('\ntesseract.js@')
  })

  it('ships the licences of the conversion worker, which bundles every library it uses', () => {
    const worker = readFileSync(join(repoRoot, 'out', 'worker', 'THIRD_PARTY_LICENSES.txt'), 'utf8')
    for (const name of ['mammoth@', '@embedpdf/pdfium@', 'saxes@', 'fflate@', '@e965/xlsx@'])
      expect(worker).toContain(`\n${name}`)
    expect(worker).toContain('Apache License')
    // The .wasm is read from node_modules, not bundled: PDFium's own notice comes with its package's glue.
    expect(worker).toContain('Copyright 2014 PDFium Authors')
  })
})
