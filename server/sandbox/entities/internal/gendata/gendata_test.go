package main

import (
	"reflect"
	"testing"
)

func TestParseCuratedLine(t *testing.T) {
	line := "Book,CreativeWork | hamlet | Hamlet | Hamlet | Hamlet | Hamlet | ハムレット | The Tragedy of Hamlet;Hamlet | Tragedy | Tragédie | Tragödie | Tragedia | Hamlet |  | 2200 |  | Hamlet is a tragedy."
	r, err := parseCuratedLine(line)
	if err != nil {
		t.Fatal(err)
	}
	if got, want := r.ID, "/m/0lx_hamlet"; got != want {
		t.Errorf("got id %q; want %q", got, want)
	}
	if got, want := r.Types, []string{"Book", "CreativeWork"}; !reflect.DeepEqual(got, want) {
		t.Errorf("got types %v; want %v", got, want)
	}
	if got, want := r.Alias["en"], []string{"The Tragedy of Hamlet"}; !reflect.DeepEqual(got, want) {
		t.Errorf("got aliases %v; want %v (the name itself dropped)", got, want)
	}
	if got, want := r.Article["en"].URL, "https://en.wikipedia.org/wiki/Hamlet"; got != want {
		t.Errorf("got article url %q; want %q", got, want)
	}
	if r.Image != nil || r.Popularity != 2200 || r.Name["ja"] != "ハムレット" {
		t.Errorf("got %+v", r)
	}
	for _, bad := range []string{"Person | x | too | few", "Person | x | a | b | c | d | e | f | g | h | i | j | k | l | notanumber | m | n"} {
		if _, err := parseCuratedLine(bad); err == nil {
			t.Errorf("%q: got no error; want one", bad)
		}
	}
}

func TestExpandTypes(t *testing.T) {
	tests := []struct {
		in, want []string
	}{
		{[]string{"Person"}, []string{"Person"}},
		{[]string{"CollegeOrUniversity"}, []string{"CollegeOrUniversity", "EducationalOrganization", "Organization"}},
		{[]string{"MusicAlbum", "CreativeWork"}, []string{"MusicAlbum", "CreativeWork", "MusicPlaylist"}},
		{[]string{"Country"}, []string{"Country", "AdministrativeArea", "Place"}},
	}
	for _, tt := range tests {
		if got := expandTypes(tt.in); !reflect.DeepEqual(got, tt.want) {
			t.Errorf("expandTypes(%v): got %v; want %v", tt.in, got, tt.want)
		}
	}
}

func TestFlagFile(t *testing.T) {
	tests := []struct{ in, want string }{
		{"France", "Flag_of_France.svg"},
		{"United States", "Flag_of_the_United_States.svg"},
		{"Cayman Islands", "Flag_of_the_Cayman_Islands.svg"},
		{"Dominican Republic", "Flag_of_the_Dominican_Republic.svg"},
		{"Czechia", "Flag_of_the_Czech_Republic.svg"},
		{"Seychelles", "Flag_of_Seychelles.svg"},
		{"Réunion", "Flag_of_France.svg"},
	}
	for _, tt := range tests {
		if got := flagFile(tt.in); got != tt.want {
			t.Errorf("flagFile(%q): got %q; want %q", tt.in, got, tt.want)
		}
	}
}

func TestGroupThousands(t *testing.T) {
	tests := []struct {
		in   float64
		want string
	}{{551695, "551,695"}, {17098242, "17,098,242"}, {999, "999"}, {0.44, "0.44"}, {1000, "1,000"}}
	for _, tt := range tests {
		if got := groupThousands(tt.in); got != tt.want {
			t.Errorf("groupThousands(%v): got %q; want %q", tt.in, got, tt.want)
		}
	}
}
