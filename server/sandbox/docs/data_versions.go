package docs

// downloads returns the protocol-relative download paths of a version for
// the given formats.
func downloads(project, version string, formats ...string) Downloads {
	d := Downloads{}
	for _, f := range formats {
		d[f] = "//readthedocs.org/projects/" + project + "/downloads/" + f + "/" + version + "/"
	}
	return d
}

// pipTag is an active, built release tag of pip with all three downloads.
func pipTag(id int, name, commit string) Version {
	return Version{
		ID: id, Slug: name, VerboseName: name, Built: true, Active: true, Type: "tag",
		Identifier: commit, PrivacyLevel: "public", ProjectID: 6,
		Downloads: downloads("pip", name, "pdf", "htmlzip", "epub"),
	}
}

// fixedVersions are the versions written out in full: pip has 12 active versions
// (stable, latest and ten release tags) and 2 inactive ones; kitchen-sink
// has 3 versions (one inactive); mkdocs has 3.
func fixedVersions() []Version {
	all3 := []string{"pdf", "htmlzip", "epub"}
	return []Version{
		{
			ID: 1437428, Slug: "stable", VerboseName: "stable", Built: true, Active: true, Type: "tag",
			Identifier: "3a6b3995c141c0888af6591a59240ba5db7d9914", PrivacyLevel: "public", ProjectID: 6,
			Downloads: downloads("pip", "stable", all3...),
		},
		{
			ID: 3681, Slug: "latest", VerboseName: "latest", Built: true, Active: true, Type: "branch",
			Identifier: "main", PrivacyLevel: "public", ProjectID: 6,
			Downloads: downloads("pip", "latest", all3...),
		},
		pipTag(21980034, "24.0", "630df74797694e9fb6c13461390f5416689b8030"),
		pipTag(21371123, "23.3.2", "8d13e1f95749cbb24ed8ba41f0bb21a51df40f0c"),
		pipTag(20930482, "23.3.1", "49b64100b2c5de069e312aa745f71aaa13636b03"),
		pipTag(19847203, "23.2.1", "250bbd8b52cbec19730124f56611c10fce45a4cc"),
		pipTag(19210566, "23.1.2", "91cf4fbe595f367112561f988fcdd54342aa21ce"),
		pipTag(18492317, "23.0.1", "b4c0b9edd72f12c907ac1d2c35e024067390e61e"),
		pipTag(17605118, "22.3.1", "68243b4c9f3743a3f5551ff41719c77c68360a84"),
		pipTag(15280047, "21.3.1", "41379171103882336303973556751e906309358c"),
		pipTag(12811920, "20.3.4", "91324fcdaa5617cd7b992a3e371378439579fa99"),
		pipTag(10026115, "19.3.1", "e4bf5e3a3bdd798ee7690239bb876af7f9d804eb"),
		{
			ID: 312447, Slug: "9.0.3", VerboseName: "9.0.3", Built: true, Active: false, Type: "tag",
			Identifier: "aa223e1039f99f045ae54ef93cd3fd4dcf721ee1", PrivacyLevel: "public", ProjectID: 6,
			Downloads: downloads("pip", "9.0.3", "pdf", "htmlzip"),
		},
		{
			ID: 13521, Slug: "1.5.6", VerboseName: "1.5.6", Built: false, Active: false, Type: "tag",
			Identifier: "58a560fefd84ef15f16554b96c1720a9c0497d82", PrivacyLevel: "public", ProjectID: 6,
			Downloads: Downloads{},
		},
		{
			ID: 2204511, Slug: "latest", VerboseName: "latest", Built: true, Active: true, Type: "branch",
			Identifier: "main", PrivacyLevel: "public", ProjectID: 17,
			Downloads: downloads("kitchen-sink", "latest", "pdf", "htmlzip"),
		},
		{
			ID: 2204530, Slug: "v2.0", VerboseName: "v2.0", Built: true, Active: true, Type: "tag",
			Identifier: "0d4e274f4e44d3882986bff0f232bfa5d678d271", PrivacyLevel: "public", ProjectID: 17,
			Downloads: downloads("kitchen-sink", "v2.0", "htmlzip"),
		},
		{
			ID: 2204518, Slug: "old-theme", VerboseName: "old-theme", Built: true, Active: false, Type: "branch",
			Identifier: "old-theme", PrivacyLevel: "public", ProjectID: 17,
			Downloads: Downloads{},
		},
		{
			ID: 4551200, Slug: "latest", VerboseName: "latest", Built: true, Active: true, Type: "branch",
			Identifier: "master", PrivacyLevel: "public", ProjectID: 53,
			Downloads: downloads("mkdocs", "latest", "htmlzip"),
		},
		{
			ID: 4551233, Slug: "1.6.0", VerboseName: "1.6.0", Built: true, Active: true, Type: "tag",
			Identifier: "177768dd84852e20f16c8dc9fc86c8e8af2cd906", PrivacyLevel: "public", ProjectID: 53,
			Downloads: downloads("mkdocs", "1.6.0", "htmlzip"),
		},
		{
			ID: 4551219, Slug: "1.5.3", VerboseName: "1.5.3", Built: true, Active: true, Type: "tag",
			Identifier: "ba469061f5cde8f113b7cfda071d4e9da15ef17d", PrivacyLevel: "public", ProjectID: 53,
			Downloads: downloads("mkdocs", "1.5.3", "htmlzip"),
		},
	}
}
