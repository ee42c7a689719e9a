import { readdirSync, readFileSync } from 'node:fs'
import { join, sep } from 'node:path'
import type { Plugin } from 'vite'

const NODE_MODULES = `${sep}node_modules${sep}`

/** The package folder (`…/node_modules/name` or `…/node_modules/@scope/name`) a bundled file comes from. */
export function packageRootOf(moduleId: string): string | undefined {
  const path = moduleId.replace(/^\0+/, '').replace(/\?.*$/, '')
  const at = path.lastIndexOf(NODE_MODULES)
  if (at === -1) return undefined
  const parts = path.slice(at + NODE_MODULES.length).split(sep)
  const name = parts[0]?.startsWith('@') ? parts.slice(0, 2) : parts.slice(0, 1)
  return path.slice(0, at + NODE_MODULES.length) + name.join(sep)
}

function licenceOf(root: string): { heading: string; text: string } {
  const manifest = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as {
    name?: string
    version?: string
    license?: unknown
  }
  const files = readdirSync(root).filter((file) => /^(licen[cs]e|copying|notice)/i.test(file))
  const text = files.map((file) => readFileSync(join(root, file), 'utf8').trim()).join('\n\n')
  const licence = typeof manifest.license === 'string' ? manifest.license : 'see the package'
  return {
    heading: `${manifest.name ?? root}@${manifest.version ?? '?'} (${licence})`,
    text: text || `No licence file in the package; package.json says: ${licence}.`,
  }
}

/**
 * Writes the licence texts of every npm package whose code went into the bundle (dependencies that are
 * left external keep their own files in node_modules), as one asset next to the entry files.
 */
export function bundledLicenses(fileName = 'THIRD_PARTY_LICENSES.txt'): Plugin {
  // The packages of every bundle this plugin instance takes part in (a config may build several).
  const roots = new Set<string>()
  return {
    name: 'bureau:bundled-licenses',
    apply: 'build',
    generateBundle(_options, bundle) {
      for (const output of Object.values(bundle)) {
        if (output.type !== 'chunk') continue
        for (const id of output.moduleIds) {
          const root = packageRootOf(id)
          if (root) roots.add(root)
        }
      }
      if (roots.size === 0) return
      // A package installed twice at one version (nested copies) is listed once.
      const sections = [
        ...new Set(
          [...roots]
            .map(licenceOf)
            .map(({ heading, text }) => `${heading}\n${'-'.repeat(heading.length)}\n\n${text}\n`),
        ),
      ].sort()
      const intro = 'Third-party code bundled into these files, with the licence it is used under.\n\n'
      this.emitFile({ type: 'asset', fileName, source: intro + sections.join('\n') })
    },
  }
}
