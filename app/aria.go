package app

// describedBy returns id when on is true, for an aria-describedby naming an error that shows.
func describedBy(on bool, id string) string {
	if on {
		return id
	}
	return ""
}
