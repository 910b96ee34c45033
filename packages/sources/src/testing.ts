export { type S3Server, startS3Server } from './testing/s3-server.ts'
export { LOOPBACK, startTestSyncWorker } from './testing/sync-worker.ts'
export { startWebSiteServer, type WebSiteServer } from './testing/web-site-server.ts'
export { APACHE_DAV_MODULE, startWebdavServer, type WebdavServer } from './testing/webdav-server.ts'
