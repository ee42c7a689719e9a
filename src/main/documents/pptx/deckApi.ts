// What create_pptx and append_slides call, loaded on their first use (pptxgenjs and remark stay unloaded
// until a deck is written).
export { prepareAssets } from '../markdown/assets'
export { buildDeck } from './buildDeck'
export { appendDeck, deckLayoutNames, deckTitles, openDeck, slideSize, templateDeck } from './deckPackage'
export { outlineSlides } from './outline'
export { slideKind } from './templateSlide'
