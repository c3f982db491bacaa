/**
 * XSS payloads for the panel's security suite. Each one, if it ever ran, would set
 * `window.__pwned`, open a dialog or make a request to `remote.invalid` — all three are watched.
 */
export const XSS_PAYLOADS: readonly string[] = [
  '<script>window.__pwned = "script"</script>',
  '<img src=x onerror="window.__pwned = \'img-onerror\'">',
  '<img src=x onerror=alert(1)>',
  '<svg onload="window.__pwned = \'svg-onload\'"></svg>',
  '<svg><script>window.__pwned = "svg-script"</script></svg>',
  '<svg><animate onbegin="window.__pwned = \'animate\'" attributeName="x" dur="1s"/></svg>',
  '<svg><a xlink:href="javascript:window.__pwned=\'svg-a\'"><text x="20" y="20">svg link</text></a></svg>',
  '<a href="javascript:window.__pwned = \'a-js\'">js link</a>',
  '<a href="&#106;avascript:window.__pwned=\'entity\'">entity link</a>',
  '<a href="jav&#x09;ascript:window.__pwned=\'tab\'">tab link</a>',
  '<a href="data:text/html;base64,PHNjcmlwdD5wYXJlbnQuX19wd25lZD0xPC9zY3JpcHQ+">data link</a>',
  '[md js link](javascript:window.__pwned=\'md-js\')',
  '[md data link](data:text/html,<script>parent.__pwned=1</script>)',
  '[md vbscript](vbscript:msgbox(1))',
  '<javascript:window.__pwned=\'autolink\'>',
  '![remote image](http://remote.invalid/track.png)',
  '![x" onerror="window.__pwned=\'md-img-attr\'](x)',
  '<img src="http://remote.invalid/pixel.gif">',
  '<iframe src="javascript:parent.__pwned=\'iframe\'"></iframe>',
  '<iframe srcdoc="<script>parent.__pwned=\'srcdoc\'</script>"></iframe>',
  '<object data="javascript:window.__pwned=\'object\'"></object>',
  '<embed src="http://remote.invalid/x.swf">',
  '<details open ontoggle="window.__pwned = \'details\'"><summary>s</summary>d</details>',
  '<input autofocus onfocus="window.__pwned = \'autofocus\'">',
  '<form action="javascript:window.__pwned=\'form\'"><button>go</button></form>',
  '<video><source onerror="window.__pwned = \'video\'"></video>',
  '<body onload="window.__pwned = \'body\'">',
  '<style>@import url(http://remote.invalid/x.css); body { background: url(http://remote.invalid/bg.png) }</style>',
  '<div style="background:url(http://remote.invalid/bg.png)">styled</div>',
  '<link rel="stylesheet" href="http://remote.invalid/x.css">',
  '<meta http-equiv="refresh" content="0;url=javascript:window.__pwned=\'meta\'">',
  '<base href="http://remote.invalid/">',
  '<math><mtext><table><mglyph><style><img src=x onerror="window.__pwned=\'mxss-math\'">',
  '<noscript><p title="</noscript><img src=x onerror=window.__pwned=\'mxss-noscript\'>">',
  '<x onclick="window.__pwned=\'unknown-tag\'">click me</x>',
  '"><script>window.__pwned="attr-breakout"</script>',
  '</title><script>window.__pwned="title-breakout"</script>',
  '<img src=x:alert(1) onerror=eval(String.fromCharCode(119,105,110,100,111,119,46,95,95,112,119,110,101,100,61,49))>',
  '<a href="http://remote.invalid/" ping="http://remote.invalid/ping" target="_top">ping link</a>',
  '<form id="app"><input name="announcer"></form><a id="announcer">clobber</a>',
  '<div class="overlay btn primary">fake overlay</div>',
];

/** Names (file names, group names, sources) built from the payloads, as the service might send. */
export function payloadName(p: string, ext: string): string {
  return `${p}${ext}`;
}
