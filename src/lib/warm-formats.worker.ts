import { warmFormats } from './format';

// The browser's ICU locale data is the process's, not this thread's: made here, the page's first formats are quick.
warmFormats();
postMessage('warm');
