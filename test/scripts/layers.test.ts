import { readdirSync } from 'node:fs'
import { createRequire } from 'node:module'
import { describe, expect, it } from 'vitest'

interface Layer {
  name: string
  root?: 'shared'
  folders: string[]
  may: string[]
}

const config = createRequire(import.meta.url)('../../.dependency-cruiser.cjs') as { layers: Layer[] }
const layers = config.layers

/** The folders (and loose .ts files) directly under src/main or src/shared. */
function roomsOf(root: 'main' | 'shared'): string[] {
  return readdirSync(`src/${root}`, { withFileTypes: true })
    .filter((entry) => entry.isDirectory() || entry.name.endsWith('.ts'))
    .map((entry) => entry.name)
}

describe('layers as an allow-list (.dependency-cruiser.cjs)', () => {
  it('places every folder under src/main and src/shared in exactly one layer, and names no folder that is gone', () => {
    for (const root of ['main', 'shared'] as const) {
      const placed = layers
        .filter((layer) => (layer.root ?? 'main') === root)
        .flatMap((layer) => layer.folders)
      const rooms = roomsOf(root)
      expect(rooms.length).toBeGreaterThan(5)
      expect(rooms.filter((room) => !placed.includes(room)).map((room) => `src/${root}/${room}`)).toEqual([])
      expect(placed.filter((folder, i) => placed.indexOf(folder) !== i)).toEqual([])
      expect(placed.filter((folder) => !rooms.includes(folder))).toEqual([])
    }
  })

  it('lets a layer import only layers below it', () => {
    const names = layers.map((layer) => layer.name)
    for (const [index, layer] of layers.entries()) {
      for (const name of layer.may) {
        expect(names.indexOf(name), `${layer.name} may import ${name}`).toBeGreaterThanOrEqual(0)
        expect(names.indexOf(name), `${layer.name} may import ${name}`).toBeLessThan(index)
      }
    }
  })
})
