declare const __ISDLC_VERSION__: string;
declare const __ISDLC_JSON_SCHEMAS__: string;
