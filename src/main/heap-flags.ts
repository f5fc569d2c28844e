import { setFlagsFromString } from 'node:v8';

// A grown young generation keeps a replica fill's garbage resident for good (about 25 MB of
// `server.rss_idle_mb`); unlike its size, V8 reads its growth factor after start.
setFlagsFromString('--semi-space-growth-factor=1');
