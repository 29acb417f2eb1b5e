package app

// The features of the UI, each a package that registers its pages, views and viewers with
// app/ui and app/op in its init function: the shell imports them for that alone. Adding an
// API's own view, or any other feature, is its folder and its line here.
import (
	_ "loupe/app/chat"
	_ "loupe/app/cluster"
	_ "loupe/app/historypage"
	_ "loupe/app/oauth"
	_ "loupe/app/ownsandbox"
	_ "loupe/app/reports"
	_ "loupe/app/script"
	_ "loupe/app/walkthrough"
)
