import { readFileSync } from 'node:fs'
import { dirname, resolve } from 'node:path'
import { defineConfig, type Plugin } from 'vitest/config'

const pkg = JSON.parse(readFileSync(new URL('./package.json', import.meta.url), 'utf8')) as {
  version: string
}

/**
 * electron-vite's `?modulePath` import (a separately bundled entry, such as the conversion worker) is
 * resolved to the entry's .ts source, which the code then starts through tsx.
 */
function modulePathFromSources(): Plugin {
  const suffix = '?modulePath'
  return {
    name: 'bureau:module-path-from-sources',
    enforce: 'pre',
    resolveId(id, importer) {
      if (!id.endsWith(suffix) || !importer) return null
      return `\0module-path:${resolve(dirname(importer), id.slice(0, -suffix.length))}`
    },
    load(id) {
      if (!id.startsWith('\0module-path:')) return null
      return `export default ${JSON.stringify(id.slice('\0module-path:'.length))}`
    },
  }
}

export default defineConfig({
  plugins: [modulePathFromSources()],
  define: { __BUREAU_VERSION__: JSON.stringify(pkg.version) },
  test: {
    include: ['test/**/*.test.ts', 'test/**/*.test.tsx'],
    environment: 'node',
    // Generous: a waiting test must survive a loaded 2-core machine; a real hang still fails.
    testTimeout: 60_000,
    hookTimeout: 30_000,
    // Two cores: keep parallelism modest so LibreOffice/Chromium-backed tests are not starved.
    maxWorkers: 2,
  },
})
