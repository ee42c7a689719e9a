import { posix } from 'node:path'
import { isCompleteXml } from '../xml/completeXml'
import { childElements, type Element, parseXml } from '../xml/parseXml'
import { zipText } from '../zip/readZip'

export interface Relationship {
  type: string
  target: string
  external: boolean
}

export class OpcPackage {
  private readonly parsed = new Map<string, ReturnType<typeof parseXml> | undefined>()

  constructor(readonly files: Map<string, Uint8Array>) {}

  /** Parts that exist but are cut short or garbled; their content is left out. */
  readonly damaged = new Set<string>()

  xml(path: string): ReturnType<typeof parseXml> | undefined {
    if (!this.parsed.has(path)) {
      const text = zipText(this.files, path)
      const complete = text !== undefined && isCompleteXml(text)
      if (text !== undefined && !complete) this.damaged.add(path)
      this.parsed.set(path, complete ? parseXml(text) : undefined)
    }
    return this.parsed.get(path)
  }

  /** The relationships of a part, keyed by id, with targets resolved to package paths. */
  relationships(partPath: string): Map<string, Relationship> {
    const relsPath = posix.join(posix.dirname(partPath), '_rels', `${posix.basename(partPath)}.rels`)
    const document = this.xml(relsPath)
    const result = new Map<string, Relationship>()
    const root = document && childElements(document)[0]
    if (!root) return result
    for (const rel of childElements(root)) {
      const target = rel.attribs.Target ?? ''
      const external = rel.attribs.TargetMode === 'External'
      const resolved = external
        ? target
        : target.startsWith('/')
          ? target.slice(1)
          : posix.normalize(posix.join(posix.dirname(partPath), target))
      result.set(rel.attribs.Id ?? '', { type: rel.attribs.Type ?? '', target: resolved, external })
    }
    return result
  }

  relatedOfType(partPath: string, typeSuffix: string): string | undefined {
    for (const rel of this.relationships(partPath).values()) {
      if (!rel.external && rel.type.endsWith(typeSuffix)) return rel.target
    }
    return undefined
  }
}

export function relId(element: Element, name: string): string | undefined {
  return (
    element.attribs[`r:${name}`] ??
    Object.entries(element.attribs).find(([key]) => key.endsWith(`:${name}`))?.[1]
  )
}
