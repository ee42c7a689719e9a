export { default } from '../workspace/WorkspacePage'
