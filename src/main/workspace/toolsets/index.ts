export { filesToolset } from './filesToolset'
export { historyToolset } from './historyToolset'
