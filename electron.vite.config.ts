import { readFileSync } from 'node:fs'
import { resolve } from 'node:path'
import react from '@vitejs/plugin-react'
import { defineConfig } from 'electron-vite'
import { bundledLicenses } from './scripts/bundledLicenses'

const pkg = JSON.parse(readFileSync(resolve(__dirname, 'package.json'), 'utf8')) as { version: string }
const define = { __BUREAU_VERSION__: JSON.stringify(pkg.version) }

// Some libraries are bundled into the build instead of being resolved file by file from node_modules at
// run time, which costs `bureau convert` (and every other start) tens of milliseconds per library
// (zod alone is ~100 files). The document converters run in the worker's own build
// (electron.vite.worker.config.ts, every library bundled); they stay listed so that main-thread code that
// uses one (the e-mail HTML to Markdown) has it bundled too. tesseract.js stays external: it starts a
// worker thread from its own package files. Licences: THIRD_PARTY_LICENSES.txt.
const bundledDeps = [
  'zod',
  'commander',
  'mammoth',
  'turndown',
  '@joplin/turndown-plugin-gfm',
  '@mixmark-io/domino',
  'htmlparser2',
  'domhandler',
  'chardet',
  'papaparse',
  '@e965/xlsx',
]

export default defineConfig({
  main: {
    define,
    plugins: [bundledLicenses()],
    build: {
      outDir: 'out/main',
      externalizeDeps: { exclude: bundledDeps },
      rollupOptions: {
        input: {
          index: resolve(__dirname, 'src/main/electron/main.ts'),
          cli: resolve(__dirname, 'src/main/cli/main.ts'),
        },
        output: { format: 'es', entryFileNames: '[name].js', chunkFileNames: 'chunks/[name]-[hash].js' },
        // Bureau's own modules have no import-time side effects (no bare `import './x'`), so a chunk that
        // re-exports a service's index no longer drags in every module the index names: without this,
        // `bureau tool` loaded the whole app (the `server` chunk) through the browser index.
        treeshake: { moduleSideEffects: (id: string) => !id.includes('/src/') },
      },
    },
  },
  preload: {
    build: {
      outDir: 'out/preload',
      // A sandboxed preload must be one CommonJS file that requires nothing but electron.
      externalizeDeps: false,
      rollupOptions: {
        input: { index: resolve(__dirname, 'src/preload/index.ts') },
        external: ['electron'],
        output: { format: 'cjs', entryFileNames: '[name].cjs', codeSplitting: false },
      },
    },
  },
  renderer: {
    root: resolve(__dirname, 'src/renderer'),
    define,
    plugins: [react(), bundledLicenses()],
    build: {
      outDir: 'out/renderer',
      minify: true,
      sourcemap: false,
      rollupOptions: { input: { index: resolve(__dirname, 'src/renderer/index.html') } },
    },
  },
})
