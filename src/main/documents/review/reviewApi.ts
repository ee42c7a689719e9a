// What the review methods call, loaded on their first use (the toolset's declaration stays light).
export { decideChanges, trackedChanges } from './changes'
export { addComment, replyToComment, resolveComment } from './comments'
export { fillTemplate } from './fillTemplate'
export { listComments } from './listComments'
export { bodyParagraphs, reviewText, Touched } from './paragraphs'
export { stories } from './stories'
export { replaceText, suggestEdit } from './textEdits'
export { COMMENTS_REL, elements, openWord, partDom, relatedPart, saveWord } from './wordXml'
