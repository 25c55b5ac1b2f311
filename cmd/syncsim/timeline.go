package main

func cmdExplain(e env, args []string) int {
	return usageError(e, "explain", "renderer not built")
}
