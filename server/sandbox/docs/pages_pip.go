package docs

// console is a Sphinx code block of a shell session.
func console(lines string) string {
	return "<div class=\"highlight-console notranslate\"><div class=\"highlight\"><pre><span></span>" +
		lines + "\n</pre></div>\n</div>"
}

// pipPages are pip's pages (Sphinx dirhtml, so clean URLs): the index and the
// user guide, whose "requirements-files" section is the document's example.
func pipPages() map[string]*section {
	return map[string]*section{
		"index": sec("pip", "pip", []string{
			`<p>pip is the <a class="reference external" href="https://packaging.python.org/guides/tool-recommendations/">package installer for Python</a>. ` +
				`You can use it to install packages from the <a class="reference external" href="https://pypi.org">Python Package Index</a> and other indexes.</p>`,
			`<div class="toctree-wrapper compound">` + "\n" + `<ul>` + "\n" +
				`<li class="toctree-l1"><a class="reference internal" href="getting-started/">Getting Started</a></li>` + "\n" +
				`<li class="toctree-l1"><a class="reference internal" href="user_guide/">User Guide</a></li>` + "\n" +
				`</ul>` + "\n" + `</div>`,
		},
			sec("looking-for-help", "Looking for help?", []string{
				`<p>If you find any security issues, please report them to <a class="reference external" href="mailto:security&#37;&#52;&#48;python&#46;org">security<span>&#64;</span>python<span>&#46;</span>org</a>.</p>`,
				`<p>For everything else, open an issue on the <a class="reference external" href="https://github.com/pypa/pip/issues">issue tracker</a>.</p>`,
			}),
		),
		"user_guide": sec("user-guide", "User Guide", nil,
			sec("running-pip", "Running pip", []string{
				`<p>pip is a command line program. When you install pip, a <code class="docutils literal notranslate"><span class="pre">pip</span></code> command is added to your system, which can be run from the command prompt as follows:</p>`,
				console(`<span class="gp">$ </span>python -m pip &lt;pip arguments&gt;`),
			}),
			sec("installing-packages", "Installing Packages", []string{
				`<p>pip supports installing from <a class="reference external" href="https://pypi.org">PyPI</a>, version control, local projects, and directly from distribution files.</p>`,
				console(`<span class="gp">$ </span>python -m pip install SomePackage            <span class="c1"># latest version</span>` + "\n" +
					`<span class="gp">$ </span>python -m pip install <span class="s1">'SomePackage&gt;=1.0.4'</span>   <span class="c1"># minimum version</span>`),
				`<div class="figure align-center" id="id1">` + "\n" +
					`<img alt="How pip finds, downloads and installs a package" src="../_images/install-flow.png" style="width: 600px;" />` + "\n" +
					`<p class="caption"><span class="caption-text">How pip finds, downloads and installs a package.</span></p>` + "\n" + `</div>`,
			},
				sec("installing-from-wheels", "Installing from Wheels", []string{
					`<p>“Wheel” is a built, archive format that can greatly speed installation compared to building and installing from source archives.</p>`,
					`<table class="docutils align-default">` + "\n" +
						`<thead>` + "\n" +
						`<tr class="row-odd"><th class="head"><p>Option</p></th>` + "\n" + `<th class="head"><p>Effect</p></th>` + "\n" + `</tr>` + "\n" +
						`</thead>` + "\n" + `<tbody>` + "\n" +
						`<tr class="row-even"><td><p><code class="docutils literal notranslate"><span class="pre">--only-binary=:all:</span></code></p></td>` + "\n" +
						`<td><p>Never build from source; fail if no wheel matches.</p></td>` + "\n" + `</tr>` + "\n" +
						`<tr class="row-odd"><td><p><code class="docutils literal notranslate"><span class="pre">--no-binary=:all:</span></code></p></td>` + "\n" +
						`<td><p>Always build from source archives.</p></td>` + "\n" + `</tr>` + "\n" +
						`<tr class="row-even"><td><p><code class="docutils literal notranslate"><span class="pre">--prefer-binary</span></code></p></td>` + "\n" +
						`<td><p>Prefer an older wheel to a newer source archive.</p></td>` + "\n" + `</tr>` + "\n" +
						`</tbody>` + "\n" + `</table>`,
				}),
			),
			sec("requirements-files", "Requirements Files", []string{
				`<p>“Requirements files” are files containing a list of items to be installed using <code>pip install</code>.</p>`,
			}),
			sec("constraints-files", "Constraints Files", []string{
				`<p>Constraints files are requirements files that only control which version of a requirement is installed, not whether it is installed or not.</p>`,
				console(`<span class="gp">$ </span>python -m pip install -c constraints.txt`),
				`<p>See <a class="reference internal" href="#requirements-files"><span class="std std-ref">Requirements Files</span></a> for the file format.</p>`,
			}),
		),
	}
}
