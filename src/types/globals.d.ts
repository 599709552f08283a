declare const __ISDLC_VERSION__: string;
