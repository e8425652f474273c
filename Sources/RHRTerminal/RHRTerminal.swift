// RHRTerminal: see DESIGN.md section 3.
