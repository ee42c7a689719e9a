import {
  contentTypeOf,
  declareContentType,
  freePartName,
  nextRelId,
  type Parts,
  type Relationship,
  readRels,
  relativeTarget,
  writeRels,
} from './packageParts'

/**
 * Copies parts (with everything their relationships reach) from the original package into the one
 * exceljs wrote, renaming on collisions and copying shared targets (an image used twice) once.
 */
export class PartCopier {
  private readonly copied = new Map<string, string>()

  constructor(
    private readonly from: Parts,
    private readonly to: Parts,
  ) {}

  copy(part: string): string | undefined {
    const done = this.copied.get(part)
    if (done) return done
    const bytes = this.from[part]
    if (!bytes) return undefined
    const target = freePartName(this.to, part)
    this.copied.set(part, target)
    this.to[target] = bytes
    const type = contentTypeOf(this.from, part)
    if (type) declareContentType(this.to, target, type)
    const rels = readRels(this.from, part)
    if (rels.length > 0) {
      const rewritten = rels.map((rel) => {
        if (rel.external || !rel.part) return rel
        const copy = this.copy(rel.part)
        return copy ? { ...rel, target: relativeTarget(target, copy) } : rel
      })
      writeRels(this.to, target, rewritten)
    }
    return target
  }

  /** Adds a relationship from `ownerPart` (in the output) to a copy of `rel`'s target; returns its new id. */
  link(ownerPart: string, ownerRels: Relationship[], rel: Relationship): string | undefined {
    let target = rel.target
    if (!rel.external) {
      if (!rel.part) return undefined
      const copy = this.copy(rel.part)
      if (!copy) return undefined
      target = relativeTarget(ownerPart, copy)
    }
    const id = nextRelId(ownerRels)
    ownerRels.push({ id, type: rel.type, target, external: rel.external })
    return id
  }
}
