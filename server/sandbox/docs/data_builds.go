package docs

// fixedBuilds are the builds written out in full: two of pip (7367364 is the document's
// example), three of kitchen-sink (one failed, one still building, so its
// length is null) and one of mkdocs.
func fixedBuilds() []Build {
	return []Build{
		{
			ID: 7367364, Date: "2018-06-19T15:15:59.135894", Length: ptr(59), Type: "html", State: "finished",
			Success: true, Commit: ptr("6f808d7ef80ea2ea5ba3ad9d6ad0e9bd7d3e9fa1"),
			DocsURL: "https://pip.pypa.io/en/latest/", Project: 6, ProjectSlug: "pip", Version: 3681, VersionSlug: "latest",
			Commands: []Command{
				{
					ID: 42852216, Build: 7367364, Command: "git remote set-url origin https://github.com/pypa/pip.git",
					StartTime: "2018-06-19T20:16:00.951959", EndTime: "2018-06-19T20:16:00.969170",
				},
				{
					ID: 42852220, Build: 7367364,
					Command:   "python -m sphinx -T -b dirhtml -d _build/doctrees -D language=en . _build/html",
					StartTime: "2018-06-19T20:16:08.101200", EndTime: "2018-06-19T20:16:53.522431", RunTime: 45,
					Output: "Running Sphinx v1.7.5\nbuild succeeded.",
				},
			},
		},
		{
			ID: 7301458, Date: "2018-06-12T09:41:27.503318", Length: ptr(64), Type: "html", State: "finished",
			Success: true, Commit: ptr("3a6b3995c141c0888af6591a59240ba5db7d9914"),
			DocsURL: "https://pip.pypa.io/en/stable/", Project: 6, ProjectSlug: "pip", Version: 1437428, VersionSlug: "stable",
			Commands: []Command{
				{
					ID: 42510101, Build: 7301458, Command: "git clone --no-single-branch --depth 50 https://github.com/pypa/pip.git .",
					StartTime: "2018-06-12T09:41:29.210334", EndTime: "2018-06-12T09:41:33.870112", RunTime: 4,
					Output: "Cloning into '.'...",
				},
				{
					ID: 42510105, Build: 7301458,
					Command:   "python -m sphinx -T -b dirhtml -d _build/doctrees -D language=en . _build/html",
					StartTime: "2018-06-12T09:41:40.002871", EndTime: "2018-06-12T09:42:29.640510", RunTime: 49,
					Output: "Running Sphinx v1.7.5\nbuild succeeded.",
				},
			},
		},
		{
			ID: 9120345, Date: "2019-02-03T11:20:05.118502", Length: ptr(41), Type: "html", State: "finished",
			Success: false,
			Error: "Sphinx error:\nmaster file /home/docs/checkouts/readthedocs.org/user_builds/kitchen-sink/" +
				"checkouts/latest/contents.rst not found",
			Commit:  ptr("3594253694189d73b04af3a5d225ccdce7bea4ce"),
			DocsURL: "https://kitchen-sink.readthedocs.io/en/latest/", Project: 17, ProjectSlug: "kitchen-sink",
			Version: 2204511, VersionSlug: "latest",
			Commands: []Command{
				{
					ID: 51002211, Build: 9120345, Command: "git clone --no-single-branch --depth 50 https://github.com/loupe-demo/kitchen-sink.git .",
					StartTime: "2019-02-03T11:20:07.411020", EndTime: "2019-02-03T11:20:09.019334", RunTime: 1,
					Output: "Cloning into '.'...",
				},
				{
					ID: 51002219, Build: 9120345,
					Command:   "python -m sphinx -T -b html -d _build/doctrees -D language=en . _build/html",
					StartTime: "2019-02-03T11:20:15.300117", EndTime: "2019-02-03T11:20:44.982004", RunTime: 29, ExitCode: 2,
					Output: "Running Sphinx v1.8.3\n\nSphinx error:\nmaster file /home/docs/checkouts/readthedocs.org/" +
						"user_builds/kitchen-sink/checkouts/latest/contents.rst not found",
				},
			},
		},
		{
			ID: 9120377, Date: "2019-02-03T11:31:48.402117", Length: ptr(38), Type: "html", State: "finished",
			Success: true, Commit: ptr("d79362e2175aaf140312538231e7b32edc139b56"),
			DocsURL: "https://kitchen-sink.readthedocs.io/en/latest/", Project: 17, ProjectSlug: "kitchen-sink",
			Version: 2204511, VersionSlug: "latest",
			Commands: []Command{
				{
					ID: 51002390, Build: 9120377,
					Command:   "python -m sphinx -T -b html -d _build/doctrees -D language=en . _build/html",
					StartTime: "2019-02-03T11:31:57.120448", EndTime: "2019-02-03T11:32:24.600913", RunTime: 27,
					Output: "Running Sphinx v1.8.3\nbuild succeeded, 2 warnings.",
				},
			},
		},
		{
			ID: 9121002, Date: "2019-02-03T12:05:10.550001", Length: nil, Type: "html", State: "building",
			Success: true, Commit: ptr("b21d0ef1e9a16936c5445b59152d342bfbb67e38"),
			DocsURL: "https://kitchen-sink.readthedocs.io/en/v2.0/", Project: 17, ProjectSlug: "kitchen-sink",
			Version: 2204530, VersionSlug: "v2.0",
			Commands: []Command{
				{
					ID: 51004877, Build: 9121002, Command: "git checkout --force b21d0ef1e9a16936c5445b59152d342bfbb67e38",
					StartTime: "2019-02-03T12:05:12.700310", EndTime: "2019-02-03T12:05:13.002451",
				},
			},
		},
		{
			ID: 8000412, Date: "2018-11-05T08:12:44.901233", Length: ptr(22), Type: "html", State: "finished",
			Success: true, Commit: ptr("9241d3969545c8446cb0c1ef373901ba8534d722"),
			DocsURL: "https://mkdocs.readthedocs.io/en/latest/", Project: 53, ProjectSlug: "mkdocs",
			Version: 4551200, VersionSlug: "latest",
			Commands: []Command{
				{
					ID: 47700031, Build: 8000412,
					Command:   "python -m mkdocs build --clean --site-dir _build/html --config-file mkdocs.yml",
					StartTime: "2018-11-05T08:12:52.330019", EndTime: "2018-11-05T08:13:03.871176", RunTime: 11,
					Output: "INFO    -  Cleaning site directory\nINFO    -  Building documentation to directory: _build/html",
				},
			},
		},
	}
}
