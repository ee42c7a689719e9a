import { strFromU8, strToU8 } from 'fflate'
import { isChartPart, type RefRewrite, rewriteChartXml } from '../charts/chartRefs'
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
    /** Rewrites applied to chart parts on the way (sheet renames, inserted rows). */
    private readonly rewrites: readonly RefRewrite[],
  ) {}

  copy(part: string): string | undefined {
    const done = this.copied.get(part)
    if (done) return done
    const bytes = this.from[part]
    if (!bytes) return undefined
    const target = freePartName(this.to, part)
    this.copied.set(part, target)
    const type = contentTypeOf(this.from, part)
    this.to[target] =
      this.rewrites.length > 0 && isChartPart(type)
        ? strToU8(rewriteChartXml(strFromU8(bytes), this.rewrites))
        : bytes
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
