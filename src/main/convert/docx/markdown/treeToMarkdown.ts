import { tidyMarkdown } from '../../markdown/tidyMarkdown'
import type { LightElement } from './lightDom'
import { prepareTree } from './prepareTree'
import { ruleFor } from './treeRules'
import { turndownTree } from './turndownTree'

/** htmlToMarkdown.ts's `htmlToMarkdown(root, { dataImages: 'keep' })` on the light tree (which it edits). */
export function treeToMarkdown(root: LightElement): string {
  prepareTree(root)
  return tidyMarkdown(turndownTree(root, ruleFor))
}
