import { resolve } from 'node:path'
import { defineConfig } from 'electron-vite'
import { bundledLicenses } from './scripts/bundledLicenses'

// The document-conversion worker, built apart from the app as CommonJS (out/worker/*.cjs): on Node 20
// only a script compiled through `vm.Script` can be given V8's cached bytecode, and the worker's entry
// (workerMain.ts) compiles its own files that way (convert/worker/codeCache.ts). Every library is
// bundled, so the worker resolves nothing from node_modules at run time.
export default defineConfig({
  main: {
    plugins: [bundledLicenses()],
    build: {
      outDir: 'out/worker',
      externalizeDeps: false,
      rollupOptions: {
        input: { workerMain: resolve(__dirname, 'src/main/convert/worker/workerMain.ts') },
        output: { format: 'cjs', entryFileNames: '[name].cjs', chunkFileNames: '[name]-[hash].cjs' },
        treeshake: { moduleSideEffects: (id: string) => !id.includes('/src/') },
      },
    },
  },
})
