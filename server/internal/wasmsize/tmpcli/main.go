package main

import (
	"fmt"
	"os"

	"loupe/server/internal/wasmsize"
)

func main() {
	data, _ := os.ReadFile(os.Args[1])
	rep, err := wasmsize.Analyze(data)
	if err != nil {
		panic(err)
	}
	fmt.Printf("total %d code %d data %d names %d\n", rep.Total, rep.Code, rep.Data, rep.Names)
	for i, p := range rep.Packages {
		if i >= 45 {
			break
		}
		fmt.Printf("%8d %s\n", p.Code, p.Name)
	}
}
