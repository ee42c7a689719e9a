export { KnowledgeStatus } from '../../../shared/ipc/routes/knowledge'
