/** Types of scripts/icons.mjs for the test that checks the committed icons against it. */
export declare const ICON_SOURCE: string;
export declare const ICON_DIR: string;
export declare function renderIcons(svg?: Buffer): Record<'icon.png' | 'icon.ico' | 'icon.icns', Buffer>;
