export type { NoticeCenter } from './noticeCenter'
export { createNoticeCenter } from './noticeCenter'
