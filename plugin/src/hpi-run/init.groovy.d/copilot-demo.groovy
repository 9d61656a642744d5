// Run only by `mvn hpi:run` (plugin/pom.xml points Jenkins' init scripts to this folder); never part of the hpi.
// Sets up a demo that needs no account: the scripted model the runner's --demo uses (DemoModel, on 127.0.0.1), a
// Copilot CLI tool installation pinned to the version the tests use (installed with npm on first use, as the runner
// does), and a Pipeline job `copilot-demo` that runs a real Copilot CLI session against that model. The model gets a
// new port on every start; the job is rewritten to match.
import hudson.tools.CommandInstaller
import hudson.tools.InstallSourceProperty
import io.jenkins.plugins.copilotautopilot.CopilotCliInstallation
import io.jenkins.plugins.copilotautopilot.core.demo.DemoModel
import jenkins.model.Jenkins
import org.jenkinsci.plugins.workflow.cps.CpsFlowDefinition
import org.jenkinsci.plugins.workflow.job.WorkflowJob

def jenkins = Jenkins.get()
def model = DemoModel.start()
Runtime.runtime.addShutdownHook(new Thread({ model.close() }))

def cliName = 'copilot-cli-1.0.102'
def installations = jenkins.getDescriptorByType(CopilotCliInstallation.DescriptorImpl)
if (!installations.installations.any { it.name == cliName }) {
    def installer = new CommandInstaller(null, 'npm install --no-save --prefix . @github/copilot@1.0.102', '.')
    installations.setInstallations(
            (installations.installations as List) + new CopilotCliInstallation(cliName, null,
                    [new InstallSourceProperty([installer])]) as CopilotCliInstallation[])
    installations.save()
}

def tools = DemoModel.TOOLS.collect { "'${it}'" }.join(', ')
def script = """\
// A real Copilot CLI session against a scripted model on this machine (see plugin/src/hpi-run): no account, no token.
node {
    dir('demo-project') {
        writeFile file: 'README.md', text: '# A demo project\\n\\nA folder for the Copilot autopilot demo.\\n'
        copilotAutopilot prompt: '${DemoModel.PROMPT}',
            installation: '${cliName}',
            offline: true, providerBaseUrl: '${model.baseUrl()}', model: '${DemoModel.MODEL}',
            allowTools: [${tools}]
        echo readFile('NOTES.md')
    }
}
"""
def job = jenkins.getItem('copilot-demo') ?: jenkins.createProject(WorkflowJob, 'copilot-demo')
job.definition = new CpsFlowDefinition(script, true)
job.description = 'A Copilot autopilot session on the scripted demo model: click Build Now.'
job.save()
println "copilot-autopilot demo: job copilot-demo, scripted model at ${model.baseUrl()}"
